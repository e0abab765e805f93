import { Anchor, Button, Divider, PasswordInput, Stack, Text } from '@mantine/core';
import {
  startAuthentication,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import type { AuthApi } from '../api/client';
import { ApiProblem, ProblemAlert, useCallOf } from '@gatehouse/ui-shared';
import { ALL_FACTORS, CodeForm } from './MfaStep';

/**
 * The application asked for a fresh sign-in (`prompt=login`, `max_age`, a stronger `acr_values`)
 * and the session's last proof is older or weaker: the password again, a passkey, or a
 * verification code (POST /v1/auth/reauthenticate) renews it.
 */
export function ReauthStep({
  api,
  email,
  onRenewed,
  onOtherAccount,
}: {
  api: AuthApi;
  email: string;
  onRenewed: () => Promise<void>;
  onOtherAccount: () => void;
}) {
  const [password, setPassword] = useState('');
  const [withCode, setWithCode] = useState(false);
  const { error, busy, run: call } = useCallOf<'password' | 'passkey'>();
  const renew = async (proof: Record<string, unknown>) => {
    const fresh = await api.call<{ access_token: string }>(
      'POST',
      '/v1/auth/reauthenticate',
      proof,
    );
    api.useToken(fresh.access_token);
    await onRenewed();
  };
  const run = (which: 'password' | 'passkey', proof: () => Promise<Record<string, unknown>>) =>
    call(which, () => proof().then(renew));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run('password', async () => ({ password }));
  };
  const passkey = () =>
    run('passkey', async () => {
      const options = await api.call<PublicKeyCredentialRequestOptionsJSON>(
        'POST',
        '/v1/auth/passkey/authenticate/begin',
        { email },
      );
      return { credential: await startAuthentication({ optionsJSON: options }) };
    });
  const passwordError = error instanceof ApiProblem ? error.fieldError('password') : undefined;
  const intro = (
    <Text>
      The application asks you to sign in again as{' '}
      <Text span fw={700}>
        {email}
      </Text>
      .
    </Text>
  );
  if (withCode) {
    return (
      <Stack>
        {intro}
        <CodeForm
          factors={ALL_FACTORS}
          intro="Enter a code from your authenticator app, a text message or a backup code."
          note={null}
          cancelLabel="Use your password instead"
          onCancel={() => setWithCode(false)}
          verify={(factor, code) => renew({ factor, code })}
          sendSms={async () => void (await api.call('POST', '/v1/auth/reauthenticate/sms'))}
        />
      </Stack>
    );
  }
  return (
    <Stack>
      {intro}
      <form onSubmit={submit} noValidate>
        <Stack>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={passwordError}
          />
          {!passwordError && <ProblemAlert error={error} title="Could not confirm it's you" />}
          <Button type="submit" loading={busy === 'password'} disabled={busy === 'passkey'}>
            Confirm
          </Button>
        </Stack>
      </form>
      <Divider label="or" labelPosition="center" />
      <Button
        variant="default"
        onClick={passkey}
        loading={busy === 'passkey'}
        disabled={busy === 'password'}
      >
        Use a passkey
      </Button>
      <Button variant="default" onClick={() => setWithCode(true)} disabled={busy !== null}>
        Use a verification code
      </Button>
      <Anchor component="button" type="button" size="sm" onClick={onOtherAccount}>
        Use another account
      </Anchor>
    </Stack>
  );
}
