import { SignedIn, SignedOut, useSession } from '@gatehouse/react';
import { Account } from './Account';
import { SignInForm, SignUpForm } from './SignedOutScreen';

export function App() {
  const { status } = useSession();
  return (
    <>
      <header>
        <h1>Gatehouse React example</h1>
      </header>
      <main>
        {status === 'loading' && (
          <p role="status" className="muted">
            Restoring your session…
          </p>
        )}
        <SignedOut>
          <div className="columns">
            <SignInForm />
            <SignUpForm />
          </div>
        </SignedOut>
        <SignedIn>
          <Account />
        </SignedIn>
      </main>
    </>
  );
}

/** Shown when the build had no project key. */
export function NotConfigured() {
  return (
    <main>
      <h1>Gatehouse React example</h1>
      <p role="alert">
        Set <code>VITE_GATEHOUSE_PROJECT_KEY</code> (and <code>VITE_GATEHOUSE_AUTH_URL</code> if
        Gatehouse is not on http://localhost:4000), then restart: see examples/react-spa/README.md.
      </p>
    </main>
  );
}
