import { Alert, Code, Text } from '@mantine/core';
import { ApiProblem } from './problem';

/** A failed call as the person should see it: the server's title and `detail`, and the `traceId` to quote to an operator. */
export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error : null;
  return (
    <Alert
      color="red"
      variant="light"
      title={title ?? problem?.title ?? 'Something went wrong'}
      role="alert"
    >
      <Text size="sm">
        {problem ? problem.detail : error instanceof Error ? error.message : 'Unexpected error.'}
      </Text>
      {problem && problem.retryAfterSeconds !== null && (
        <Text size="sm">Try again in {problem.retryAfterSeconds} s.</Text>
      )}
      {problem?.traceId && (
        <Text size="xs" c="dimmed" mt={4}>
          Trace ID: <Code>{problem.traceId}</Code>
        </Text>
      )}
    </Alert>
  );
}
