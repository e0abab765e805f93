import { renderToString } from 'react-dom/server';
import { createGatehouse } from '@gatehouse/js';
import { GatehouseProvider, SignInFlow, useSignIn } from './index';

const problem = (status: number, slug: string, detail: string) =>
  new Response(
    JSON.stringify({ type: `https://gatehouse.dev/problems/${slug}`, title: slug, status, detail }),
    { status, headers: { 'content-type': 'application/problem+json' } },
  );

/** A fake auth runtime: ada's password is "right", she has TOTP, and 123456 is her code. */
function client() {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const token = `${b64({ alg: 'ES256' })}.${b64({ sub: 'usr_1', sid: 'ses_1', iat: now, exp: now + 900 })}.sig`;
  const signedIn = () =>
    Response.json({
      user: { id: 'usr_1', email: 'ada@example.com' },
      session: { id: 'ses_1', access_token: token },
    });
  const fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const path = new URL(String(input)).pathname;
    const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as Record<
      string,
      string
    >;
    if (path === '/v1/auth/sign-in')
      return body.password === 'right'
        ? Response.json({
            mfa_required: true,
            mfa_token: 'mfa_1',
            available_factors: ['totp', 'backup_code'],
          })
        : problem(401, 'invalid-credentials', 'Invalid email or password.');
    if (path === '/v1/auth/mfa/verify')
      return body.mfa_token === 'mfa_1' && body.code === '123456'
        ? signedIn()
        : problem(401, 'invalid-code', 'The code is not valid.');
    return problem(404, 'not-found', 'No such route.');
  }) as unknown as typeof globalThis.fetch;
  return createGatehouse({ authUrl: 'http://auth.test', projectKey: 'pk', fetch, crossTab: false });
}

describe('useSignIn (SignInFlow)', () => {
  it('walks password → MFA challenge → a wrong code (challenge kept) → the right code → signed in, telling each step to its subscribers', async () => {
    const gh = client();
    const flow = new SignInFlow(gh);
    const steps: string[] = [];
    flow.subscribe(() => steps.push(flow.getSnapshot().step));

    await flow.signIn('ada@example.com', 'right');
    expect(flow.getSnapshot()).toEqual({
      step: 'mfa-required',
      error: null,
      factors: ['totp', 'backup_code'],
    });
    expect(gh.getState().status).toBe('loading');

    await flow.verifyMfa('totp', '000000');
    expect(flow.getSnapshot()).toMatchObject({
      step: 'mfa-required',
      factors: ['totp', 'backup_code'],
      error: { slug: 'invalid-code', status: 401 },
    });

    await flow.verifyMfa('totp', '123456');
    expect(flow.getSnapshot()).toEqual({ step: 'signed-in', error: null, factors: [] });
    expect(steps).toEqual([
      'submitting',
      'mfa-required',
      'submitting',
      'mfa-required',
      'submitting',
      'signed-in',
    ]);
    expect(gh.getState()).toMatchObject({
      status: 'signed-in',
      user: { id: 'usr_1', email: 'ada@example.com' },
    });
    gh.dispose();
  });

  it('a wrong password is the error step with the problem; reset() goes back to idle; a code without a challenge is refused', async () => {
    const gh = client();
    const flow = new SignInFlow(gh);
    await flow.signIn('ada@example.com', 'wrong');
    expect(flow.getSnapshot()).toMatchObject({
      step: 'error',
      factors: [],
      error: { slug: 'invalid-credentials', detail: 'Invalid email or password.' },
    });
    flow.reset();
    expect(flow.getSnapshot()).toEqual({ step: 'idle', error: null, factors: [] });
    await flow.verifyMfa('totp', '123456');
    expect(flow.getSnapshot()).toMatchObject({
      step: 'mfa-required',
      error: { title: 'No MFA challenge' },
    });
    expect(gh.getState().status).toBe('loading');
  });

  it('the hook starts idle inside the provider', () => {
    function Form() {
      const { step, error, factors } = useSignIn();
      return <p>{[step, error?.slug ?? 'no error', factors.length].join(' ')}</p>;
    }
    expect(
      renderToString(
        <GatehouseProvider client={client()} restore={false}>
          <Form />
        </GatehouseProvider>,
      ),
    ).toBe('<p>idle no error 0</p>');
  });
});
