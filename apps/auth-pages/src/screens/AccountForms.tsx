import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { AuthApi, SignedIn } from '../api/client';
import { ApiProblem, ProblemAlert, useCall } from '@gatehouse/ui-shared';
import { signInPageUrl } from '../pages';

const fieldOf = (error: unknown, ...fields: string[]) =>
  error instanceof ApiProblem ? fields.map((f) => error.fieldError(f)).find(Boolean) : undefined;

/** Create an account (`POST /v1/auth/sign-up`): the new session then completes the interaction as a sign-in does. */
export function SignUpForm({
  api,
  onSignedUp,
  onSignIn,
}: {
  api: AuthApi;
  onSignedUp: (answer: SignedIn) => Promise<void>;
  onSignIn: () => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useCall();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(async () =>
      onSignedUp(
        await api.call<SignedIn>('POST', '/v1/auth/sign-up', { email: email.trim(), password }),
      ),
    );
  };
  const emailError = fieldOf(error, 'email');
  const passwordError = fieldOf(error, 'password');
  return (
    <Stack>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={emailError}
          />
          <PasswordInput
            label="Password"
            description="At least 8 characters, not a common password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={passwordError}
          />
          {!(emailError || passwordError) && (
            <ProblemAlert error={error} title="The account was not created" />
          )}
          <Button type="submit" loading={busy}>
            Create account
          </Button>
        </Stack>
      </form>
      <Anchor component="button" type="button" size="sm" onClick={onSignIn}>
        I already have an account: sign in
      </Anchor>
    </Stack>
  );
}

/** Forgot password: mails a reset link that comes back to this page (`POST /v1/auth/password/forgot` with the page as `redirect_url`). */
export function ForgotForm({
  api,
  onSent,
  onSignIn,
}: {
  api: AuthApi;
  onSent: (email: string) => void;
  onSignIn: () => void;
}) {
  const [email, setEmail] = useState('');
  const { error, busy, run } = useCall();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    run(async () => {
      await api.call('POST', '/v1/auth/password/forgot', {
        email: address,
        redirect_url: signInPageUrl(api.config.auth_url, api.config.project_id),
      });
      onSent(address);
    });
  };
  const emailError = fieldOf(error, 'email');
  return (
    <Stack>
      <Text size="sm">
        Enter the email address of your account: we send it a link to choose a new password.
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={emailError}
          />
          {!emailError && <ProblemAlert error={error} />}
          <Button type="submit" loading={busy}>
            Send the reset link
          </Button>
        </Stack>
      </form>
      <Anchor component="button" type="button" size="sm" onClick={onSignIn}>
        Back to sign in
      </Anchor>
    </Stack>
  );
}

/** The mailed reset link (`?token=`): checks it, then sets the new password (`POST /v1/auth/password/reset`). */
export function ResetForm({
  api,
  token,
  onDone,
}: {
  api: AuthApi;
  token: string;
  onDone: () => void;
}) {
  const [password, setPassword] = useState('');
  const [valid, setValid] = useState<boolean | null>(null);
  const { error, busy, run } = useCall();
  useEffect(() => {
    api.call('POST', '/v1/auth/password/reset/validate', { token }).then(
      () => setValid(true),
      () => setValid(false),
    );
  }, [api, token]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(async () => {
      await api.call('POST', '/v1/auth/password/reset', { token, password });
      onDone();
    });
  };
  if (valid === false)
    return (
      <Text role="alert">
        This reset link is invalid, used or expired. Ask for a new one from the sign-in page.
      </Text>
    );
  const passwordError = fieldOf(error, 'password');
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <PasswordInput
          label="New password"
          description="At least 8 characters, not a common password"
          autoComplete="new-password"
          required
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={passwordError}
        />
        {!passwordError && <ProblemAlert error={error} title="The password was not changed" />}
        <Button type="submit" loading={busy} disabled={valid !== true}>
          Change password
        </Button>
      </Stack>
    </form>
  );
}
