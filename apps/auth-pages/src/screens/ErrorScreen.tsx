import { Code, Stack, Text } from '@mantine/core';
import type { PagesConfig } from '../api/client';
import { errorDescription, errorHint, errorTitle } from '../pages';
import { Frame } from '../ui/Frame';

/**
 * The provider's errors shown to the person (`?error=<code>&error_description=<text>&context=…&hint=…`):
 * our own words for the code, the standard's fixed description of it, whether it happened while
 * signing in or out, and the client setting to change (`hint`, one of a fixed set); never the
 * description. Anyone can link here with any query, and this page is on the sign-in origin, so it
 * shows no text a link could choose (no phishing message).
 */
export function ErrorScreen({ config }: { config: PagesConfig }) {
  const q = new URLSearchParams(window.location.search);
  const code = q.get('error')?.slice(0, 64) ?? null;
  const signOut = q.get('context') === 'sign-out';
  const description = errorDescription(code);
  const hint = errorHint(q.get('hint'));
  return (
    <Frame project={config.project_name} heading={errorTitle(code)} step="error">
      <Stack>
        <Text role="alert">
          {signOut ? 'The sign-out could not be completed.' : 'The sign-in could not be completed.'}
        </Text>
        <Text size="sm">
          Go back to the application and try again. If this keeps happening, contact whoever runs
          it.
        </Text>
        {code && (
          <Stack gap={4} data-testid="error-details">
            <Text size="xs" c="dimmed">
              For the application&apos;s developer: error <Code>{code}</Code>{' '}
              {signOut ? 'at sign-out (end-session)' : 'at sign-in (authorization)'}
              {description && <>: {description}</>}
            </Text>
            {hint && (
              <Text size="xs" c="dimmed">
                {hint}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Frame>
  );
}
