import { Code, Stack, Text } from '@mantine/core';
import type { PagesConfig } from '../api/client';
import { errorTitle } from '../pages';
import { Frame } from '../ui/Frame';

/**
 * The provider's errors shown to the person (`?error=<code>&error_description=<text>`): our own
 * words for the code, never the description. Anyone can link here with any query, and this page
 * is on the sign-in origin, so it shows no text a link could choose (no phishing message).
 */
export function ErrorScreen({ config }: { config: PagesConfig }) {
  const q = new URLSearchParams(window.location.search);
  const code = q.get('error')?.slice(0, 64) ?? null;
  return (
    <Frame project={config.project_name} heading={errorTitle(code)} step="error">
      <Stack>
        <Text role="alert">The sign-in could not be completed.</Text>
        <Text size="sm">Go back to the application and try again. If this keeps happening, contact whoever runs it.</Text>
        {code && (
          <Text size="xs" c="dimmed">
            Error code: <Code>{code}</Code>
          </Text>
        )}
      </Stack>
    </Frame>
  );
}
