import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { AuthState, GatehouseClient, MfaFactor } from '@gatehouse/js';
import { SignInFlow, type SignInSnapshot } from './sign-in-flow';

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

export interface UseSignIn extends SignInSnapshot {
  signIn(identifier: string, password: string): Promise<void>;
  verifyMfa(factor: MfaFactor, code: string): Promise<void>;
  sendMfaSms(): Promise<void>;
  signInWithPasskey(email?: string): Promise<void>;
  /** Back to `idle` (e.g. "use another account"). */
  reset(): void;
}

/**
 * A sign-in form's state machine: `idle` → `submitting` → `mfa-required` (answer with `verifyMfa`,
 * or a passkey) → `signed-in`, or `error` with the GatehouseError to show. The session itself is
 * in `useSession()`, which follows the client.
 */
export function useSignIn(): UseSignIn {
  const client = useGatehouse();
  const flow = useMemo(() => new SignInFlow(client), [client]);
  const snapshot = useSyncExternalStore(flow.subscribe, flow.getSnapshot, flow.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      signIn: flow.signIn,
      verifyMfa: flow.verifyMfa,
      sendMfaSms: flow.sendMfaSms,
      signInWithPasskey: flow.signInWithPasskey,
      reset: flow.reset,
    }),
    [snapshot, flow],
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
