import {
  Anchor,
  Button,
  Center,
  Divider,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { startAuthentication } from '@simplewebauthn/browser';
import { useEffect, useState, type FormEvent } from 'react';
import type { components } from '../api/auth-runtime';
import { keyHeader, unwrap } from '../api/clients';
import {
  ApiProblem,
  CodeInput,
  FactorChoice,
  fieldErrors,
  ProblemAlert,
  useCall,
} from '@gatehouse/ui-shared';
import { ThemeToggle } from '../ui/ThemeToggle';
import { factorName } from '../ui/factor-names';
import { useAuth } from './AuthContext';

type SignedIn = components['schemas']['SignedInResponse'];
type MfaChallenge = components['schemas']['MfaChallengeResponse'];
type Factor = components['schemas']['MfaVerifyDto']['factor'];

/** The second factors this page can take a code of, named as on every other screen. */
const CODE_FACTORS: ReadonlySet<string> = new Set<Factor>(['totp', 'sms', 'backup_code']);

/** Sign-in as an admin through the auth runtime with the console project's key: password then MFA, or a passkey. */
export function SignInPage() {
  const { auth, signedIn, projectKey, setProjectKey, config } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const { error, busy, run } = useCall();
  const [showKey, setShowKey] = useState(!config.project_key);
  useEffect(() => {
    document.title = 'Sign in · Gatehouse console';
  }, []);

  const finish = async (answer: SignedIn | MfaChallenge) => {
    if ('mfa_required' in answer) setChallenge(answer);
    else await signedIn(answer.session.access_token);
  };
  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    run(async () =>
      finish(
        await unwrap(
          auth.POST('/v1/auth/sign-in', {
            params: keyHeader(projectKey),
            body: { identifier: email, password },
          }),
        ),
      ),
    );
  };
  const signInWithPasskey = () =>
    run(async () => {
      const options = await unwrap(
        auth.POST('/v1/auth/passkey/authenticate/begin', {
          params: keyHeader(projectKey),
          body: email ? { email } : {},
        }),
      );
      const credential = await startAuthentication({ optionsJSON: options });
      const body = {
        credential,
      } as unknown as components['schemas']['CompletePasskeyAuthenticationDto'];
      await finish(
        await unwrap(
          auth.POST('/v1/auth/passkey/authenticate/complete', {
            params: keyHeader(projectKey),
            body,
          }),
        ),
      );
    });

  const errors = fieldErrors(error, ['identifier', 'password']);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Group justify="space-between" mb="md">
          <Title order={1} size="h2">
            {challenge ? 'Two-step verification' : 'Sign in to Gatehouse'}
          </Title>
          <ThemeToggle />
        </Group>
        {challenge ? (
          <MfaStep challenge={challenge} onDone={finish} onCancel={() => setChallenge(null)} />
        ) : (
          <Stack>
            <form onSubmit={submitPassword} noValidate>
              <Stack>
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="username webauthn"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  error={errors.fields.identifier}
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  error={errors.fields.password}
                />
                {!(error instanceof ApiProblem && error.slug === 'validation-error') && (
                  <ProblemAlert error={error} title="Sign-in failed" />
                )}
                <Button type="submit" loading={busy} disabled={!projectKey}>
                  Sign in
                </Button>
              </Stack>
            </form>
            <Divider label="or" labelPosition="center" />
            <Button variant="default" onClick={signInWithPasskey} disabled={busy || !projectKey}>
              Sign in with a passkey
            </Button>
            {showKey ? (
              <TextInput
                label="Console project key"
                description="Admins of another tenant: the publishable key of your tenant's console project."
                value={projectKey ?? ''}
                onChange={(e) => setProjectKey(e.currentTarget.value.trim() || null)}
              />
            ) : (
              <Anchor component="button" type="button" size="sm" onClick={() => setShowKey(true)}>
                Another tenant?
              </Anchor>
            )}
          </Stack>
        )}
      </Paper>
    </Center>
  );
}

function MfaStep({
  challenge,
  onDone,
  onCancel,
}: {
  challenge: MfaChallenge;
  onDone: (answer: SignedIn) => Promise<void>;
  onCancel: () => void;
}) {
  const { auth, projectKey } = useAuth();
  const factors = challenge.available_factors.filter((f): f is Factor => CODE_FACTORS.has(f));
  const [factor, setFactor] = useState<Factor>(factors[0] ?? 'totp');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const { error, busy, run } = useCall();
  const verify = (e: FormEvent) => {
    e.preventDefault();
    run(async () =>
      onDone(
        await unwrap(
          auth.POST('/v1/auth/mfa/verify', {
            params: keyHeader(projectKey),
            body: { mfa_token: challenge.mfa_token, factor, code: code.trim() },
          }),
        ),
      ),
    );
  };
  const errors = fieldErrors(error, ['code']);
  return (
    <form onSubmit={verify} noValidate>
      <Stack>
        <FactorChoice
          factors={factors}
          label={factorName}
          value={factor}
          onChange={(v) => {
            setFactor(v);
            setCode('');
          }}
        />
        {factor === 'sms' && (
          <Button
            variant="default"
            onClick={() =>
              run(
                async () =>
                  void (
                    await unwrap(
                      auth.POST('/v1/auth/mfa/sms/send', {
                        params: keyHeader(projectKey),
                        body: { mfa_token: challenge.mfa_token },
                      }),
                    ),
                    setSent(true)
                  ),
              )
            }
            loading={busy && !sent}
          >
            {sent ? 'Send another code' : 'Text me a code'}
          </Button>
        )}
        <CodeInput
          backupCode={factor === 'backup_code'}
          data-autofocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={errors.fields.code}
        />
        <ProblemAlert error={errors.fields.code ? null : error} title="Verification failed" />
        <Text size="xs" c="dimmed">
          The code expires with this sign-in attempt after 5 minutes or 5 wrong codes.
        </Text>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            Start over
          </Anchor>
          <Button type="submit" loading={busy}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
