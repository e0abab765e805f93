import { renderToString } from 'react-dom/server';
import { createGatehouse } from '@gatehouse/js';
import { GatehouseProvider, SignedIn, SignedOut, useUser } from './index';

function client(signInOk: boolean) {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const token = `${b64({ alg: 'ES256' })}.${b64({ sub: 'usr_7', sid: 'ses_7', iat: now, exp: now + 900 })}.sig`;
  const fetch = (async () =>
    signInOk
      ? Response.json({
          user: { id: 'usr_7', email: 'grace@example.com' },
          session: { id: 'ses_7', access_token: token },
        })
      : new Response(
          JSON.stringify({ type: 'https://gatehouse.dev/problems/unauthenticated', status: 401 }),
          { status: 401 },
        )) as unknown as typeof globalThis.fetch;
  return createGatehouse({ authUrl: 'http://auth.test', projectKey: 'pk', fetch, crossTab: false });
}

function Page() {
  const user = useUser();
  return (
    <main>
      <SignedIn>
        <p>Hello {user?.email}</p>
      </SignedIn>
      <SignedOut>
        <p>Please sign in</p>
      </SignedOut>
    </main>
  );
}

describe('@gatehouse/react', () => {
  it('renders neither branch while the session is loading', () => {
    expect(
      renderToString(
        <GatehouseProvider client={client(false)}>
          <Page />
        </GatehouseProvider>,
      ),
    ).toBe('<main></main>');
  });

  it('renders <SignedIn> with the user once signed in, and <SignedOut> once the session is known to be absent', async () => {
    const signedIn = client(true);
    await signedIn.signIn({ identifier: 'grace@example.com', password: 'pw' });
    expect(
      renderToString(
        <GatehouseProvider client={signedIn}>
          <Page />
        </GatehouseProvider>,
      ),
    ).toBe('<main><p>Hello <!-- -->grace@example.com</p></main>');
    const signedOut = client(false);
    await signedOut.restore();
    expect(
      renderToString(
        <GatehouseProvider client={signedOut}>
          <Page />
        </GatehouseProvider>,
      ),
    ).toBe('<main><p>Please sign in</p></main>');
    signedIn.dispose();
  });

  it('useGatehouse outside the provider says what is missing', () => {
    expect(() => renderToString(<Page />)).toThrow(/GatehouseProvider/);
  });
});
