import { Button, Group, Text } from '@mantine/core';
import { FormProblem } from './FormProblem';

/**
 * The end of a form that saves in place: what the server refused (FormProblem), "Saved." once it
 * saved (above the button, or beside it with `savedBeside`), and the submit button.
 */
export function SaveFooter({
  error,
  fields,
  problemTitle,
  label,
  busy,
  saved = false,
  savedBeside = false,
}: {
  error: unknown;
  fields: readonly string[];
  problemTitle: string;
  label: string;
  busy: boolean;
  /** Show "Saved." (a form that adds rather than saves leaves it out). */
  saved?: boolean;
  savedBeside?: boolean;
}) {
  const status = saved && (
    <Text size="sm" role="status" fw={savedBeside ? 500 : undefined}>
      Saved.
    </Text>
  );
  return (
    <>
      <FormProblem error={error} fields={fields} title={problemTitle} />
      {!savedBeside && status}
      <Group>
        <Button type="submit" loading={busy}>
          {label}
        </Button>
        {savedBeside && status}
      </Group>
    </>
  );
}
