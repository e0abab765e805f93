import { Alert, List } from '@mantine/core';
import { ApiProblem, fieldErrors, ProblemAlert } from '@gatehouse/ui-shared';

/**
 * What a form shows above its button when the server refused it, besides the field errors the
 * form puts on its fields (`fields`): for a validation error, only the errors of fields the form
 * does not have, as a list; any other problem (a 409 conflict, even one naming a field; a network
 * failure) as a ProblemAlert with its detail and trace id.
 */
export function FormProblem({
  error,
  fields,
  title,
}: {
  error: unknown;
  fields: readonly string[];
  title?: string;
}) {
  if (!error) return null;
  if (
    !(error instanceof ApiProblem) ||
    error.slug !== 'validation-error' ||
    Object.keys(error.errors).length === 0
  )
    return <ProblemAlert error={error} title={title} />;
  const mapped = fieldErrors(error, fields);
  if (mapped.other.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={title ?? 'Some values were refused'} role="alert">
      <List size="sm">
        {mapped.other.map((m) => (
          <List.Item key={m}>{m}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
