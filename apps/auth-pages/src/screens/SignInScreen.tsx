import { Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  AuthApi,
  type Interaction,
  type MfaChallenge,
  type PagesConfig,
  type Redirect,
  type SignedIn,
} from '../api/client';
import { ApiProblem, isProblem, ProblemAlert, useCall } from '@gatehouse/ui-shared';
import { arrivalOf, cleanSearch, returnErrorMessage, STORAGE_KEYS, type Arrival } from '../pages';
import { Frame } from '../ui/Frame';
import { ForgotForm, ResetForm, SignUpForm } from './AccountForms';
import { ConsentStep } from './ConsentStep';
import { factorsOf, MfaStep, type Factor } from './MfaStep';
import { PasswordForm } from './PasswordForm';
import { ReauthStep } from './ReauthStep';

type Step =
  | { kind: 'loading' }
  /** No interaction to complete (none given, unknown, expired or finished): a message and no form. */
  | { kind: 'no-request'; error: unknown }
  /** A session exists: continue with it, or sign in with another account. */
  | { kind: 'continue'; email: string }
  | { kind: 'form'; notice: string | null }
  | { kind: 'sign-up' }
  | { kind: 'forgot' }
  | { kind: 'reset-sent'; email: string }
  /** The mailed reset link opened this page: a new password, then sign in. */
  | { kind: 'reset'; token: string }
  | { kind: 'reset-done' }
  | { kind: 'mfa'; mfaToken: string; factors: Factor[] }
  | { kind: 'reauth'; email: string }
  /** The application asks for a second factor or a passkey and the account has neither: back to it (the request ends). */
  | { kind: 'needs-factor'; email: string | null }
  | { kind: 'consent'; email: string | null }
  | { kind: 'link-sent'; email: string }
  /** Signed in in a tab that has no interaction (a magic link opened in a new tab): the first tab goes on. */
  | { kind: 'elsewhere'; email: string }
  | { kind: 'redirecting' };

const HEADINGS: Record<Step['kind'], string> = {
  loading: 'Sign in',
  'no-request': 'This sign-in request cannot continue',
  continue: 'Sign in',
  form: 'Sign in',
  'sign-up': 'Create an account',
  forgot: 'Reset your password',
  'reset-sent': 'Check your email',
  reset: 'Choose a new password',
  'reset-done': 'Your password is changed',
  mfa: 'Two-step verification',
  reauth: "Confirm it's you",
  'needs-factor': 'A second factor is needed',
  consent: 'Allow access?',
  'link-sent': 'Check your email',
  elsewhere: 'You are signed in',
  redirecting: 'Continuing…',
};

/** Tells the tab that sent a magic link that a session now exists (the link usually opens in a new tab). */
const channelName = (projectId: string) => `gatehouse-pages:${projectId}`;

/**
 * The sign-in page of an OIDC interaction (and its consent): it reads the interaction, restores a
 * session from the refresh cookie if there is one, lets the person sign in (password then MFA,
 * passkey, social provider, magic link), then completes the interaction with that session and
 * follows `redirect_to` back into the provider.
 */
export function SignInScreen({ config }: { config: PagesConfig }) {
  const api = useMemo(() => new AuthApi(config), [config]);
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const [interaction, setInteraction] = useState<Interaction | null>(null);
  const { error, setError, busy, run: act } = useCall();
  const email = useRef<string | null>(null);
  const started = useRef(false);

  const go = useCallback((r: Redirect) => {
    setStep({ kind: 'redirecting' });
    sessionStorage.removeItem(STORAGE_KEYS.interaction);
    window.location.assign(r.redirect_to);
  }, []);

  /**
   * Completes a login prompt with the session; a consent prompt shows the consent step instead.
   * After a re-authentication (`renewed`), a second `reauthentication-required` (the proof was not
   * strong enough) is thrown to the re-authentication step, which shows it.
   */
  const proceed = useCallback(
    async (i: Interaction | null, renewed = false) => {
      setError(null);
      if (!i) {
        new BroadcastChannel(channelName(config.project_id)).postMessage('signed-in');
        setStep({ kind: 'elsewhere', email: email.current ?? '' });
        return;
      }
      if (i.prompt === 'consent') {
        setStep({ kind: 'consent', email: email.current });
        return;
      }
      try {
        go(await api.complete(i.uid));
      } catch (err) {
        if (isProblem(err, 'reauthentication-required') && email.current && !renewed)
          setStep({ kind: 'reauth', email: email.current });
        else if (
          isProblem(err, 'forbidden') &&
          err instanceof ApiProblem &&
          typeof err.body.required_acr === 'string'
        )
          setStep({ kind: 'needs-factor', email: email.current });
        else if (err instanceof ApiProblem && err.status === 401) {
          api.useToken(null);
          setStep({ kind: 'form', notice: null });
          setError(err);
        } else throw err;
      }
    },
    [api, config.project_id, go],
  );

  const signedIn = useCallback(
    async (answer: SignedIn | MfaChallenge) => {
      if ('mfa_required' in answer) {
        setStep({
          kind: 'mfa',
          mfaToken: answer.mfa_token,
          factors: factorsOf(answer.available_factors),
        });
        return;
      }
      api.useToken(answer.session.access_token);
      email.current = answer.user.email;
      await proceed(interaction);
    },
    [api, interaction, proceed],
  );

  const start = useCallback(
    async (arrival: Arrival) => {
      let found: Interaction | null = null;
      if (arrival.interaction) {
        try {
          found = await api.interaction(arrival.interaction);
          setInteraction(found);
        } catch (err) {
          setStep({ kind: 'no-request', error: err });
          return;
        }
      }
      if (arrival.resetToken) {
        setStep({ kind: 'reset', token: arrival.resetToken });
        return;
      }
      if (arrival.mfaToken) {
        setStep({ kind: 'mfa', mfaToken: arrival.mfaToken, factors: factorsOf([]) });
        return;
      }
      let session: { email: string } | null = null;
      try {
        session = await api.restore();
        email.current = session?.email ?? null;
      } catch (err) {
        setError(err);
      }
      if (!found) {
        if (session) await proceed(null);
        else setStep({ kind: 'no-request', error: null });
        return;
      }
      if (arrival.error) setStep({ kind: 'form', notice: returnErrorMessage(arrival.error) });
      // prompt=create: the application asks for a new account (when the project lets people sign up).
      else if (found.create && config.sign_up && found.prompt !== 'consent')
        setStep({ kind: 'sign-up' });
      else if (session && arrival.pending) await proceed(found);
      else if (session)
        setStep(
          found.prompt === 'consent'
            ? { kind: 'consent', email: session.email }
            : { kind: 'continue', email: session.email },
        );
      else setStep({ kind: 'form', notice: null });
    },
    [api, proceed, config.sign_up],
  );

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const arrival = arrivalOf(window.location.search, {
      interaction: sessionStorage.getItem(STORAGE_KEYS.interaction),
      pending: sessionStorage.getItem(STORAGE_KEYS.pending),
    });
    sessionStorage.removeItem(STORAGE_KEYS.pending);
    if (arrival.interaction) sessionStorage.setItem(STORAGE_KEYS.interaction, arrival.interaction);
    // One-time tokens and error codes leave the address bar (and the history) once read.
    window.history.replaceState(
      null,
      '',
      `${window.location.pathname}${cleanSearch(arrival.interaction)}`,
    );
    start(arrival).catch((err: unknown) => {
      setError(err);
      setStep({ kind: 'form', notice: null });
    });
  }, [start]);

  // While the magic link is on its way, a session made in another tab (the link opened there) continues here.
  useEffect(() => {
    if (step.kind !== 'link-sent') return;
    const channel = new BroadcastChannel(channelName(config.project_id));
    channel.onmessage = () => {
      api
        .restore()
        .then((s) => {
          if (!s) return;
          sessionStorage.removeItem(STORAGE_KEYS.pending);
          email.current = s.email;
          return proceed(interaction);
        })
        .catch(setError);
    };
    return () => channel.close();
  }, [step.kind, api, config.project_id, interaction, proceed]);

  const otherAccount = () => {
    setError(null);
    setStep({ kind: 'form', notice: null });
  };
  const client = interaction ? interaction.client.name || interaction.client.client_id : null;

  return (
    <Frame project={config.project_name} heading={HEADINGS[step.kind]} step={step.kind}>
      <Stack>
        {client &&
          ['continue', 'form', 'sign-up', 'mfa', 'reauth', 'needs-factor'].includes(step.kind) && (
            <Text size="sm">
              to continue to{' '}
              <Text span fw={700}>
                {client}
              </Text>
            </Text>
          )}
        {step.kind === 'loading' && (
          <Center>
            <Loader aria-label="Loading" />
          </Center>
        )}
        {step.kind === 'no-request' && <NoRequest error={step.error} />}
        {step.kind === 'continue' && (
          <Stack>
            <Button onClick={() => act(() => proceed(interaction))} loading={busy}>
              Continue as {step.email}
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={otherAccount}>
              Use another account
            </Anchor>
          </Stack>
        )}
        {step.kind === 'form' && (
          <PasswordForm
            api={api}
            notice={step.notice}
            onSignedIn={signedIn}
            onLinkSent={(address) => setStep({ kind: 'link-sent', email: address })}
            onCreateAccount={config.sign_up ? () => setStep({ kind: 'sign-up' }) : null}
            onForgot={() => setStep({ kind: 'forgot' })}
          />
        )}
        {step.kind === 'sign-up' && (
          <SignUpForm api={api} onSignedUp={signedIn} onSignIn={otherAccount} />
        )}
        {step.kind === 'forgot' && (
          <ForgotForm
            api={api}
            onSent={(address) => setStep({ kind: 'reset-sent', email: address })}
            onSignIn={otherAccount}
          />
        )}
        {step.kind === 'reset-sent' && (
          <SentNotice
            email={step.email}
            sent="a link to choose a new password. Then sign in here with it."
            back="Back to sign in"
            onBack={otherAccount}
          />
        )}
        {step.kind === 'reset' && (
          <ResetForm api={api} token={step.token} onDone={() => setStep({ kind: 'reset-done' })} />
        )}
        {step.kind === 'reset-done' &&
          (interaction ? (
            <Stack>
              <Text role="status">Sign in with your new password to continue.</Text>
              <Button onClick={otherAccount}>Sign in</Button>
            </Stack>
          ) : (
            <Text role="status">
              Go back to the tab where you started and sign in there with your new password; you can
              close this one.
            </Text>
          ))}
        {step.kind === 'mfa' && (
          <MfaStep
            api={api}
            mfaToken={step.mfaToken}
            factors={step.factors}
            onDone={signedIn}
            onCancel={otherAccount}
          />
        )}
        {step.kind === 'reauth' && (
          <ReauthStep
            api={api}
            email={step.email}
            onRenewed={() => proceed(interaction, true)}
            onOtherAccount={otherAccount}
          />
        )}
        {step.kind === 'needs-factor' && interaction && (
          <Stack>
            <Text role="alert">
              This application asks you to sign in with a second factor (an authenticator app or a
              text message) or a passkey, and{' '}
              {step.email ? `${step.email} has` : 'your account has'} none set up yet.
            </Text>
            <Text size="sm">
              Set one up in your account, then sign in again from the application.
            </Text>
            <Button
              onClick={() => act(async () => go(await api.abort(interaction.uid)))}
              loading={busy}
            >
              Back to the application
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={otherAccount}>
              Use another account
            </Anchor>
          </Stack>
        )}
        {step.kind === 'consent' && interaction && (
          <ConsentStep api={api} interaction={interaction} email={step.email} onRedirect={go} />
        )}
        {step.kind === 'link-sent' && (
          <SentNotice
            email={step.email}
            sent="a sign-in link. Open it in this browser; this page continues by itself."
            back="Sign in another way"
            onBack={otherAccount}
          />
        )}
        {step.kind === 'elsewhere' && (
          <Text>
            You are signed in{step.email ? ` as ${step.email}` : ''}. Go back to the tab where you
            started to continue; you can close this one.
          </Text>
        )}
        {step.kind === 'redirecting' && (
          <Center>
            <Loader aria-label="Continuing to the application" />
          </Center>
        )}
        {step.kind !== 'no-request' && step.kind !== 'form' && <ProblemAlert error={error} />}
        {step.kind === 'form' && error !== null && (
          <ProblemAlert error={error} title="Your session could not be used" />
        )}
      </Stack>
    </Frame>
  );
}

function NoRequest({ error }: { error: unknown }) {
  const expired = isProblem(error, 'invalid-token') || isProblem(error, 'not-found');
  if (error && !expired)
    return <ProblemAlert error={error} title="The sign-in request could not be loaded" />;
  return (
    <Stack>
      <Text role="alert">
        {expired
          ? 'This sign-in request has expired or was already used.'
          : 'There is no sign-in request to continue.'}{' '}
        Go back to the application and sign in from there.
      </Text>
      {error instanceof ApiProblem && (
        <Text size="sm" c="dimmed">
          {error.detail}
        </Text>
      )}
    </Stack>
  );
}

/** What was mailed, without saying whether the account exists, and the way back. */
function SentNotice({
  email,
  sent,
  back,
  onBack,
}: {
  email: string;
  sent: string;
  back: string;
  onBack: () => void;
}) {
  return (
    <Stack>
      <Text>
        If an account exists for{' '}
        <Text span fw={700}>
          {email}
        </Text>
        , we sent it {sent}
      </Text>
      <Anchor component="button" type="button" size="sm" onClick={onBack}>
        {back}
      </Anchor>
    </Stack>
  );
}
