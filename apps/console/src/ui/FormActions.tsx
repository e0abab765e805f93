import { Button, Group } from '@mantine/core';

/** A form's buttons, at its right: Cancel (when it can be cancelled), then submit. */
export function FormActions({
  onCancel,
  submitLabel,
  busy,
  disabled,
  color,
}: {
  onCancel?: () => void;
  submitLabel: string;
  busy: boolean;
  disabled?: boolean;
  /** The submit button's colour, e.g. `red.9` for a destructive action. */
  color?: string;
}) {
  return (
    <Group justify="flex-end">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      )}
      <Button type="submit" color={color} disabled={disabled} loading={busy}>
        {submitLabel}
      </Button>
    </Group>
  );
}
