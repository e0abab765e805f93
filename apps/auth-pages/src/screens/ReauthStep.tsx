import { Anchor, Button, Divider, PasswordInput, Stack, Text } from '@mantine/core';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import type { AuthApi } from '../api/client';
import { ApiProblem } from '../api/problem';
import { ProblemAlert } from '../ui/ProblemAlert';

/**
 * The application asked for a fresh sign-in (`prompt=login`, `max_age`) and the session's last
 * proof is older: the password again, or a passkey (POST /v1/auth/reauthenticate), renews it.
 */
export function ReauthStep({ api, email, onRenewed, onOtherAccount }: { api: AuthApi; email: string; onRenewed: () => Promise<void>; onOtherAccount: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<'password' | 'passkey' | null>(null);
  const run = (which: 'password' | 'passkey', proof: () => Promise<Record<string, unknown>>) => {
    setBusy(which);
    setError(null);
    (async () => {
      const fresh = await api.call<{ access_token: string }>('POST', '/v1/auth/reauthenticate', await proof());
      api.useToken(fresh.access_token);
      await onRenewed();
    })()
      .catch(setError)
      .finally(() => setBusy(null));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run('password', async () => ({ password }));
  };
  const passkey = () =>
    run('passkey', async () => {
      const options = await api.call<PublicKeyCredentialRequestOptionsJSON>('POST', '/v1/auth/passkey/authenticate/begin', { email });
      return { credential: await startAuthentication({ optionsJSON: options }) };
    });
  const passwordError = error instanceof ApiProblem ? error.fieldError('password') : undefined;
  return (
    <Stack>
      <Text>
        The application asks you to sign in again as{' '}
        <Text span fw={700}>
          {email}
        </Text>
        .
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <PasswordInput label="Password" autoComplete="current-password" required autoFocus value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={passwordError} />
          {!passwordError && <ProblemAlert error={error} title="Could not confirm it's you" />}
          <Button type="submit" loading={busy === 'password'} disabled={busy === 'passkey'}>
            Confirm
          </Button>
        </Stack>
      </form>
      <Divider label="or" labelPosition="center" />
      <Button variant="default" onClick={passkey} loading={busy === 'passkey'} disabled={busy === 'password'}>
        Use a passkey
      </Button>
      <Anchor component="button" type="button" size="sm" onClick={onOtherAccount}>
        Use another account
      </Anchor>
    </Stack>
  );
}
