import { useCallback, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { GatehouseError, type Passkey, type SessionInfo, type TotpSetup } from '@gatehouse/js';
import { useGatehouse, useUser } from '@gatehouse/react';
import { Invoices, Organizations } from './Organizations';
import { FormError } from './problems';

const when = (iso: string) => new Date(iso).toLocaleString();

/** One entry of a list (a passkey, a session): what it is, its dates, and the button that acts on it. */
function Item({
  title,
  detail,
  busy,
  onAction,
  children,
}: {
  title: string;
  detail: string;
  busy: boolean;
  onAction: () => void;
  children: ReactNode;
}) {
  return (
    <li>
      <span>
        <strong>{title}</strong>
        <br />
        <span className="muted">{detail}</span>
      </span>
      <button type="button" className="secondary" disabled={busy} onClick={onAction}>
        {children}
      </button>
    </li>
  );
}

/** The signed-in screen: who, organizations (and a page only some roles may see), an authenticator app, passkeys, sessions, sign-out. */
export function Account() {
  const gatehouse = useGatehouse();
  const user = useUser();
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      <section aria-labelledby="account-title" className="card">
        <h2 id="account-title">Your account</h2>
        <p>
          Signed in as <strong>{user?.email}</strong>
        </p>
        <FormError error={error} />
        <button type="button" onClick={() => void gatehouse.signOut().catch(setError)}>
          Sign out
        </button>
      </section>
      <div className="columns">
        <Organizations />
        <Invoices />
      </div>
      <div className="columns">
        <AuthenticatorApp />
        <Passkeys />
      </div>
      <Sessions />
    </>
  );
}

/** TOTP: the secret to type into an authenticator app, ten backup codes shown once, then the first code turns it on. */
function AuthenticatorApp() {
  const gatehouse = useGatehouse();
  const id = useId();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    act(async () => {
      try {
        setSetup(await gatehouse.setupTotp());
      } catch (err) {
        // Gatehouse does not list factors to the user; a setup refused as `conflict` means the app is already on.
        if (err instanceof GatehouseError && err.slug === 'conflict') setEnabled(true);
        else throw err;
      }
    });
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    void act(async () => {
      await gatehouse.verifyTotp(code.trim());
      setEnabled(true);
      setSetup(null);
    });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Authenticator app</h2>
      {enabled ? (
        <p role="status">The authenticator app is on: signing in will ask for its code.</p>
      ) : setup ? (
        <>
          <p>
            Add this account to your authenticator app with the secret below (or open the link on a
            phone that has one), then enter the code it shows.
          </p>
          <p>
            Secret: <code id="totp-secret">{setup.secret}</code>
          </p>
          <p>
            <a href={setup.qr_code_url}>Open in an authenticator app</a>
          </p>
          <h3 id={`${id}-backup`}>Backup codes</h3>
          <p className="muted">
            Each works once if you lose the app. They are shown only now: keep them somewhere safe.
          </p>
          <ul aria-labelledby={`${id}-backup`} id="backup-codes" className="codes">
            {setup.backup_codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <form onSubmit={confirm} aria-busy={busy}>
            <label htmlFor={`${id}-code`}>Code from the app</label>
            <input
              id={`${id}-code`}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              required
            />
            <FormError error={error} />
            <button type="submit" disabled={busy}>
              Turn on
            </button>
          </form>
        </>
      ) : (
        <>
          <p>Ask for a code from an app on your phone at each sign-in.</p>
          <FormError error={error} />
          <button type="button" disabled={busy} onClick={() => void start()}>
            Set up an authenticator app
          </button>
        </>
      )}
    </section>
  );
}

/** The user's passkeys: add one with the browser's prompt, delete one. */
function Passkeys() {
  const gatehouse = useGatehouse();
  const id = useId();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  const load = useCallback(() => gatehouse.listPasskeys().then(setPasskeys, setError), [gatehouse]);
  useEffect(() => void load(), [load]);

  const act = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    setError(null);
    setNotice('');
    try {
      await work();
      setNotice(done);
      await load();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    void act(async () => {
      await gatehouse.registerPasskey(name.trim() ? { name: name.trim() } : {});
      setName('');
    }, 'Passkey added.');
  };

  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Passkeys</h2>
      {passkeys === null ? (
        <p className="muted">Loading…</p>
      ) : passkeys.length === 0 ? (
        <p>No passkey yet.</p>
      ) : (
        <ul aria-label="Your passkeys" className="items">
          {passkeys.map((p) => (
            <Item
              key={p.id}
              title={p.name}
              detail={`Added ${when(p.created_at)}${p.last_used_at ? `, last used ${when(p.last_used_at)}` : ''}`}
              busy={busy}
              onAction={() => void act(() => gatehouse.deletePasskey(p.id), 'Passkey deleted.')}
            >
              Delete<span className="visually-hidden"> {p.name}</span>
            </Item>
          ))}
        </ul>
      )}
      <form onSubmit={add} aria-busy={busy}>
        <label htmlFor={`${id}-name`}>Name (optional)</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={64}
          placeholder="e.g. Work laptop"
        />
        <FormError error={error} />
        <button type="submit" disabled={busy}>
          Add a passkey
        </button>
      </form>
      <p role="status" className="notice">
        {notice}
      </p>
    </section>
  );
}

/** Where the user is signed in: revoke another device's session (revoking this one signs out here). */
function Sessions() {
  const gatehouse = useGatehouse();
  const id = useId();
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(() => gatehouse.listSessions().then(setSessions, setError), [gatehouse]);
  useEffect(() => void load(), [load]);

  const revoke = async (session: SessionInfo) => {
    setBusy(true);
    setError(null);
    try {
      await gatehouse.revokeSession(session.id);
      if (!session.current) await load();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Sessions</h2>
      <FormError error={error} />
      {sessions === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul aria-label="Your sessions" className="items">
          {sessions.map((s, i) => (
            <Item
              key={s.id}
              title={s.current ? 'This device' : (s.user_agent ?? 'Unknown device')}
              detail={`Signed in ${when(s.created_at)} · last active ${when(s.last_active_at)}${s.ip_address ? ` · ${s.ip_address}` : ''}`}
              busy={busy}
              onAction={() => void revoke(s)}
            >
              {s.current ? 'Sign out here' : 'Revoke'}
              <span className="visually-hidden"> session {i + 1}</span>
            </Item>
          ))}
        </ul>
      )}
      <button type="button" className="link" disabled={busy} onClick={() => void load()}>
        Refresh the list
      </button>
    </section>
  );
}
