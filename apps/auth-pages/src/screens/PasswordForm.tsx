import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  Stack,
  TextInput,
} from '@mantine/core';
import {
  startAuthentication,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import type { AuthApi, MfaChallenge, SignedIn } from '../api/client';
import { ApiProblem, ProblemAlert, useCallOf } from '@gatehouse/ui-shared';
import { providerLabel, signInPageUrl, STORAGE_KEYS } from '../pages';

/** Email and password; or a passkey, a social provider of the project, or a link by email. */
export function PasswordForm({
  api,
  notice,
  onSignedIn,
  onLinkSent,
  onCreateAccount,
  onForgot,
}: {
  api: AuthApi;
  /** What a social sign-in or magic link came back with (its `?error=`), in words. */
  notice: string | null;
  onSignedIn: (answer: SignedIn | MfaChallenge) => Promise<void>;
  onLinkSent: (email: string) => void;
  /** Shown when the project lets people sign up (settings.oidc.allow_sign_up). */
  onCreateAccount: (() => void) | null;
  onForgot: () => void;
}) {
  const { config } = api;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, setError, busy, run } = useCallOf<'password' | 'passkey' | 'link'>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    run('password', async () =>
      onSignedIn(
        await api.call<SignedIn | MfaChallenge>('POST', '/v1/auth/sign-in', {
          identifier: email.trim(),
          password,
        }),
      ),
    );
  };
  const passkey = () =>
    run('passkey', async () => {
      const options = await api.call<PublicKeyCredentialRequestOptionsJSON>(
        'POST',
        '/v1/auth/passkey/authenticate/begin',
        email.trim() ? { email: email.trim() } : {},
      );
      const credential = await startAuthentication({ optionsJSON: options });
      await onSignedIn(
        await api.call<SignedIn | MfaChallenge>('POST', '/v1/auth/passkey/authenticate/complete', {
          credential,
        }),
      );
    });
  const sendLink = () => {
    const address = email.trim();
    if (!address) {
      setError(
        new ApiProblem(400, {
          title: 'Email required',
          detail: 'Enter your email address to get a sign-in link.',
          errors: { email: ['is required'] },
        }),
      );
      return;
    }
    run('link', async () => {
      await api.call('POST', '/v1/auth/magic-link/send', {
        email: address,
        redirect_url: signInPageUrl(config.auth_url, config.project_id),
      });
      sessionStorage.setItem(STORAGE_KEYS.pending, 'magic-link');
      onLinkSent(address);
    });
  };
  const social = (provider: string) => {
    const u = new URL(`${config.auth_url}/v1/auth/oauth/${encodeURIComponent(provider)}/authorize`);
    u.searchParams.set('project_key', config.project_key);
    u.searchParams.set('redirect_url', signInPageUrl(config.auth_url, config.project_id));
    return u.toString();
  };

  const problem = error instanceof ApiProblem ? error : null;
  const emailError = problem?.fieldError('identifier') ?? problem?.fieldError('email');
  const passwordError = problem?.fieldError('password');
  return (
    <Stack>
      {notice && (
        <Alert color="red" variant="light" title="Sign-in did not complete" role="alert">
          {notice}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username webauthn"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={emailError}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={passwordError}
          />
          {!(problem && (emailError || passwordError)) && (
            <ProblemAlert
              error={error}
              title={
                busy === 'link' || problem?.slug === 'validation-error'
                  ? undefined
                  : 'Sign-in failed'
              }
            />
          )}
          <Button
            type="submit"
            loading={busy === 'password'}
            disabled={busy !== null && busy !== 'password'}
          >
            Sign in
          </Button>
        </Stack>
      </form>
      <Divider label="or" labelPosition="center" />
      <Button
        variant="default"
        onClick={passkey}
        loading={busy === 'passkey'}
        disabled={busy !== null && busy !== 'passkey'}
      >
        Sign in with a passkey
      </Button>
      {config.oauth_providers.map((provider) => (
        <Button
          key={provider}
          component="a"
          href={social(provider)}
          variant="default"
          onClick={() => sessionStorage.setItem(STORAGE_KEYS.pending, 'social')}
        >
          Continue with {providerLabel(provider)}
        </Button>
      ))}
      {config.magic_link && (
        <Button
          variant="subtle"
          onClick={sendLink}
          loading={busy === 'link'}
          disabled={busy !== null && busy !== 'link'}
        >
          Email me a sign-in link
        </Button>
      )}
      <Group justify="space-between">
        <Anchor component="button" type="button" size="sm" onClick={onForgot}>
          Forgot your password?
        </Anchor>
        {onCreateAccount && (
          <Anchor component="button" type="button" size="sm" onClick={onCreateAccount}>
            Create an account
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
