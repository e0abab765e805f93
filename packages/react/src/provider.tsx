import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { GatehouseError, type AuthState, type GatehouseClient, type MfaFactor } from '@gatehouse/js';

const GatehouseContext = createContext<GatehouseClient | null>(null);

export interface GatehouseProviderProps {
  /** The client (`createGatehouse({ authUrl, projectKey })`), created once, outside render. */
  client: GatehouseClient;
  /** Restore the session from the refresh cookie when mounted (default true). */
  restore?: boolean;
  children?: ReactNode;
}

/** Makes the client and its session state available to the hooks below. */
export function GatehouseProvider({ client, restore = true, children }: GatehouseProviderProps) {
  useEffect(() => {
    if (restore && client.getState().status === 'loading') client.restore().catch(() => undefined);
  }, [client, restore]);
  return <GatehouseContext.Provider value={client}>{children}</GatehouseContext.Provider>;
}

/** The client, for any flow (`useGatehouse().listSessions()`, `.registerPasskey()`, …). */
export function useGatehouse(): GatehouseClient {
  const client = useContext(GatehouseContext);
  if (!client) throw new Error('useGatehouse: wrap the tree in <GatehouseProvider client={…}>');
  return client;
}

/** The session state: `{status: 'loading' | 'signed-in' | 'signed-out', user, sessionId}`; re-renders on change (also from other tabs). */
export function useSession(): AuthState {
  const client = useGatehouse();
  return useSyncExternalStore(
    (onChange) => client.onChange(onChange),
    () => client.getState(),
    () => client.getState(),
  );
}

/** The signed-in user (`{id, email}`), or null. */
export function useUser(): AuthState['user'] {
  return useSession().user;
}

export type SignInStep = 'idle' | 'submitting' | 'mfa-required' | 'signed-in' | 'error';

export interface UseSignIn {
  step: SignInStep;
  /** The last failure (wrong password, wrong code, locked, …), cleared by the next attempt. */
  error: GatehouseError | null;
  /** During `mfa-required`: the user's factors (`totp`, `sms`, `backup_code`). */
  factors: string[];
  signIn(identifier: string, password: string): Promise<void>;
  verifyMfa(factor: MfaFactor, code: string): Promise<void>;
  sendMfaSms(): Promise<void>;
  signInWithPasskey(email?: string): Promise<void>;
  /** Back to `idle` (e.g. "use another account"). */
  reset(): void;
}

/** A sign-in form's state machine: password → (MFA challenge →) signed in, with the error to show. */
export function useSignIn(): UseSignIn {
  const client = useGatehouse();
  const [step, setStep] = useState<SignInStep>('idle');
  const [error, setError] = useState<GatehouseError | null>(null);
  const [challenge, setChallenge] = useState<{ mfaToken: string; factors: string[] } | null>(null);

  const run = useCallback(async (attempt: () => Promise<void>, failedStep: SignInStep) => {
    setStep('submitting');
    setError(null);
    try {
      await attempt();
    } catch (err) {
      setError(err instanceof GatehouseError ? err : GatehouseError.network(err));
      setStep(failedStep);
    }
  }, []);

  const signIn = useCallback(
    (identifier: string, password: string) =>
      run(async () => {
        const result = await client.signIn({ identifier, password });
        if (result.status === 'mfa-required') {
          setChallenge({ mfaToken: result.mfaToken, factors: result.factors });
          setStep('mfa-required');
        } else setStep('signed-in');
      }, 'error'),
    [client, run],
  );
  const verifyMfa = useCallback(
    (factor: MfaFactor, code: string) =>
      run(async () => {
        if (!challenge) throw new GatehouseError(400, { title: 'No MFA challenge', detail: 'Sign in with a password first.' });
        await client.verifyMfa({ mfaToken: challenge.mfaToken, factor, code });
        setChallenge(null);
        setStep('signed-in');
        // A wrong code keeps the challenge: the user tries again (five wrong codes end it: invalid-token).
      }, 'mfa-required'),
    [client, run, challenge],
  );
  const sendMfaSms = useCallback(async () => {
    if (challenge) await client.sendMfaSms(challenge.mfaToken);
  }, [client, challenge]);
  const signInWithPasskey = useCallback(
    (email?: string) =>
      run(async () => {
        await client.signInWithPasskey(email ? { email } : {});
        setChallenge(null);
        setStep('signed-in');
      }, challenge ? 'mfa-required' : 'error'),
    [client, run, challenge],
  );
  const reset = useCallback(() => {
    setStep('idle');
    setError(null);
    setChallenge(null);
  }, []);

  return useMemo(
    () => ({ step, error, factors: challenge?.factors ?? [], signIn, verifyMfa, sendMfaSms, signInWithPasskey, reset }),
    [step, error, challenge, signIn, verifyMfa, sendMfaSms, signInWithPasskey, reset],
  );
}

/** Renders its children only when signed in (nothing while the session is being restored). */
export function SignedIn({ children }: { children?: ReactNode }) {
  return useSession().status === 'signed-in' ? <>{children}</> : null;
}

/** Renders its children only when signed out (nothing while the session is being restored). */
export function SignedOut({ children }: { children?: ReactNode }) {
  return useSession().status === 'signed-out' ? <>{children}</> : null;
}
