import { Button, Code, CopyButton, Group } from '@mantine/core';
import { UrlText } from './UrlText';

/** A public value an admin pastes elsewhere (an issuer URL, a client ID), with a copy button named after it. */
export function CopyValue({
  value,
  label,
  testId,
  nowrap,
}: {
  value: string;
  label: string;
  testId?: string;
  nowrap?: boolean;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      {/* A URL wraps after its slashes only; a key or an id of one piece anywhere. */}
      <Code
        data-testid={testId}
        style={
          nowrap
            ? { whiteSpace: 'nowrap' }
            : { minWidth: 0, ...(value.includes('/') ? {} : { wordBreak: 'break-all' }) }
        }
      >
        {nowrap ? value : <UrlText value={value} />}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size="compact-xs"
            variant="default"
            style={{ flexShrink: 0 }}
            aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`}
            onClick={copy}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
