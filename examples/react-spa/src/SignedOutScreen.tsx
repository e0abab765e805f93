import { useId, useState, type FormEvent } from 'react';
import { useGatehouse, useSignIn } from '@gatehouse/react';
import type { MfaFactor } from '@gatehouse/js';
import { fieldErrors, FormError } from './problems';

const FACTOR_NAMES: Record<string, string> = {
  totp: 'Authenticator app',
  sms: 'Text message',
  backup_code: 'Backup code',
};

/** Password sign-in, its second step (TOTP, SMS or a backup code), and passkey sign-in, through useSignIn's state machine. */
export function SignInForm() {
  const flow = useSignIn();
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [factor, setFactor] = useState<MfaFactor>('totp');
  const [code, setCode] = useState('');
  const busy = flow.step === 'submitting';
  // The challenge lasts while the flow holds its factors (also while a code is being checked).
  const challenged = flow.factors.length > 0;

  if (challenged) {
    const chosen = flow.factors.includes(factor) ? factor : (flow.factors[0] as MfaFactor);
    const submit = (e: FormEvent) => {
      e.preventDefault();
      void flow.verifyMfa(chosen, code.trim()).then(() => setCode(''));
    };
    return (
      <section aria-labelledby={`${id}-mfa`} className="card">
        <h2 id={`${id}-mfa`}>Two-step verification</h2>
        <form onSubmit={submit} aria-busy={busy}>
          <label htmlFor={`${id}-factor`}>Method</label>
          <select
            id={`${id}-factor`}
            value={chosen}
            onChange={(e) => setFactor(e.target.value as MfaFactor)}
          >
            {flow.factors.map((f) => (
              <option key={f} value={f}>
                {FACTOR_NAMES[f] ?? f}
              </option>
            ))}
          </select>
          {chosen === 'sms' && (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => void flow.sendMfaSms()}
            >
              Text me a code
            </button>
          )}
          <label htmlFor={`${id}-code`}>
            {chosen === 'backup_code' ? 'Backup code' : 'Authentication code'}
          </label>
          <input
            id={`${id}-code`}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            inputMode={chosen === 'backup_code' ? 'text' : 'numeric'}
            required
          />
          <FormError error={flow.error} />
          <button type="submit" disabled={busy}>
            Verify
          </button>
        </form>
        <div className="row">
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => void flow.signInWithPasskey()}
          >
            Use a passkey instead
          </button>
          <button type="button" className="link" disabled={busy} onClick={flow.reset}>
            Start over
          </button>
        </div>
      </section>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void flow.signIn(email.trim(), password);
  };
  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Sign in</h2>
      <form onSubmit={submit} aria-busy={busy}>
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoComplete="username webauthn"
          required
        />
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          required
        />
        <FormError error={flow.error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p className="or">or</p>
      {/* Without an email the browser offers every passkey it holds for this site (discoverable credentials). */}
      <button
        type="button"
        className="secondary"
        disabled={busy}
        onClick={() => void flow.signInWithPasskey(email.trim() || undefined)}
      >
        Sign in with a passkey
      </button>
    </section>
  );
}

/** Sign-up with an email and a password; Gatehouse signs the new account in at once (unless the project requires a verified email first). */
export function SignUpForm() {
  const gatehouse = useGatehouse();
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await gatehouse.signUp({ email: email.trim(), password });
      // Signed in: <SignedOut> gives way to the account screen.
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const emailErrors = fieldErrors(error, 'email');
  const passwordErrors = fieldErrors(error, 'password');
  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Create an account</h2>
      <form onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoComplete="email"
          required
          aria-invalid={emailErrors.length > 0}
          aria-describedby={emailErrors.length ? `${id}-email-errors` : undefined}
        />
        {emailErrors.length > 0 && (
          <p id={`${id}-email-errors`} className="error">
            {emailErrors.join(' ')}
          </p>
        )}
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          minLength={8}
          required
          aria-invalid={passwordErrors.length > 0}
          aria-describedby={`${id}-password-help${passwordErrors.length ? ` ${id}-password-errors` : ''}`}
        />
        <p id={`${id}-password-help`} className="muted">
          At least 8 characters; not a common password.
        </p>
        {passwordErrors.length > 0 && (
          <p id={`${id}-password-errors`} className="error">
            {passwordErrors.join(' ')}
          </p>
        )}
        <FormError error={error} />
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
    </section>
  );
}
