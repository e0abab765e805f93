import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  createClients,
  keyHeader,
  unwrap,
  type AdminClient,
  type AuthClient,
} from '../api/clients';
import { type ConsoleConfig, rememberProjectKey } from '../config/console-config';
import { SessionManager, type Session } from './session';

export interface Admin {
  id: string;
  email: string;
  is_admin: boolean;
}

type Status = 'restoring' | 'signed-out' | 'signed-in';

interface AuthValue {
  config: ConsoleConfig;
  status: Status;
  session: Session | null;
  admin: Admin | null;
  auth: AuthClient;
  admin_api: AdminClient;
  projectKey: string | null;
  setProjectKey: (key: string | null) => void;
  /** Keeps the token of a completed sign-in and loads who signed in. */
  signedIn: (accessToken: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** The admin API client of the signed-in admin. */
export function useAdminApi(): AdminClient {
  return useAuth().admin_api;
}

/**
 * The admin's session (docs/console.md): the access token lives in memory only; on load the
 * refresh cookie (HttpOnly, set by the auth runtime) restores it, and it is renewed before expiry.
 */
export function AuthProvider({ config, children }: { config: ConsoleConfig; children: ReactNode }) {
  const [projectKey, setKey] = useState<string | null>(config.project_key);
  const keyRef = useRef(projectKey);
  keyRef.current = projectKey;
  const manager = useMemo(
    () =>
      new SessionManager(async () => {
        // Plain fetch: a refused refresh must not itself trigger a renewal.
        if (!keyRef.current) return null;
        const res = await fetch(`${config.auth_url}/v1/auth/refresh`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'X-Service-Project-Key': keyRef.current },
        });
        if (!res.ok) return null;
        return (await res.json()) as { access_token: string; expires_in: number };
      }),
    [config.auth_url, keyRef],
  );
  const clients = useMemo(() => createClients(config, manager), [config, manager]);
  const [session, setSession] = useState<Session | null>(null);
  const [admin, setAdmin] = useState<Admin | null>(null);
  const [status, setStatus] = useState<Status>('restoring');

  const loadAdmin = useCallback(async () => {
    const me = await unwrap(clients.auth.GET('/v1/auth/me', { params: keyHeader(keyRef.current) }));
    const user = (me as { user: Admin | null }).user;
    setAdmin(user);
    setStatus(user ? 'signed-in' : 'signed-out');
  }, [clients]);

  useEffect(
    () =>
      manager.subscribe((s) => {
        setSession(s);
        if (!s) {
          setAdmin(null);
          setStatus('signed-out');
        }
      }),
    [manager],
  );

  useEffect(() => {
    let cancelled = false;
    manager
      .renew()
      .then((s) => (s && !cancelled ? loadAdmin() : setStatus('signed-out')))
      .catch(() => !cancelled && setStatus('signed-out'));
    return () => {
      cancelled = true;
    };
  }, [manager, loadAdmin]);

  const value = useMemo<AuthValue>(
    () => ({
      config,
      status,
      session,
      admin,
      auth: clients.auth,
      admin_api: clients.admin,
      projectKey,
      setProjectKey: (key) => {
        rememberProjectKey(key);
        setKey(key);
      },
      signedIn: async (accessToken) => {
        manager.set(accessToken);
        await loadAdmin();
      },
      signOut: async () => {
        await clients.auth
          .POST('/v1/auth/sign-out', { params: keyHeader(keyRef.current) })
          .catch(() => undefined);
        manager.clear();
      },
    }),
    [config, status, session, admin, clients, projectKey, manager, loadAdmin],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
