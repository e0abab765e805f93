import { Button, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AuthApi, Interaction, Redirect } from '../api/client';
import { describeScope } from '../pages';
import { ProblemAlert } from '@gatehouse/ui-shared';

/**
 * A third-party application asks for the requested scopes: Allow grants them all, Deny ends at the
 * application with `access_denied`. The consent belongs to the account the provider signed in, so
 * there is no "use another account" here (Deny, then sign in again from the application).
 */
export function ConsentStep({
  api,
  interaction,
  email,
  onRedirect,
}: {
  api: AuthApi;
  interaction: Interaction;
  email: string | null;
  onRedirect: (r: Redirect) => void;
}) {
  const [busy, setBusy] = useState<'allow' | 'deny' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const client = interaction.client.name || interaction.client.client_id;
  const answer = (which: 'allow' | 'deny') => {
    setBusy(which);
    setError(null);
    (which === 'allow'
      ? api.consent(interaction.uid, interaction.scopes)
      : api.abort(interaction.uid)
    ).then(onRedirect, (err: unknown) => {
      setError(err);
      setBusy(null);
    });
  };
  return (
    <Stack>
      <Text>
        <Text span fw={700}>
          {client}
        </Text>{' '}
        wants to access your {api.config.project_name} account{email ? ` (${email})` : ''}. It will
        be able to:
      </Text>
      <List spacing="xs" aria-label="Requested permissions">
        {interaction.scopes.map((scope) => {
          const d = describeScope(scope, interaction.resources);
          return (
            <List.Item key={scope}>
              <Text fw={500} size="sm">
                {d.label}
              </Text>
              <Text size="sm" c="dimmed">
                {d.description}
              </Text>
            </List.Item>
          );
        })}
      </List>
      <Text size="sm" c="dimmed">
        Allow only applications you trust.
      </Text>
      <ProblemAlert error={error} title="Your answer could not be recorded" />
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => answer('deny')}
          loading={busy === 'deny'}
          disabled={busy === 'allow'}
        >
          Deny
        </Button>
        <Button
          onClick={() => answer('allow')}
          loading={busy === 'allow'}
          disabled={busy === 'deny'}
        >
          Allow
        </Button>
      </Group>
    </Stack>
  );
}
