import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** A secret the server shows once (API key, webhook signing secret), with a copy button. */
export function SecretOnce({
  label,
  secret,
  onDone,
}: {
  label: string;
  secret: string;
  onDone?: () => void;
}) {
  return (
    <Alert
      color="yellow"
      variant="light"
      title={`${label}: copy it now`}
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs">
        <Text size="sm">It is stored hashed or encrypted and will not be shown again.</Text>
        <Code block data-testid="secret-once">
          {secret}
        </Code>
        <Group>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" color={copied ? 'teal.9' : undefined} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          {onDone && (
            <Button size="xs" variant="default" onClick={onDone}>
              Done
            </Button>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}
