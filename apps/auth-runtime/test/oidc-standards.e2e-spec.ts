import * as client from 'openid-client';
import { Browser, OidcStack, RP_REDIRECT, type CreatedClient, type OidcProject } from './support/oidc-stack';

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

function headerOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * What relying parties expect of the provider beyond the core flows of oidc-provider.e2e-spec
 * (issue 34): OAuth 2.1 clients that ask for no `openid` scope, the defaults of a new client
 * (RS256 ID tokens; PKCE, or the nonce for a confidential client registered without it), pushed
 * authorization requests (RFC 9126), DPoP (RFC 9449), and a discovery document whose every URL and
 * feature is served. The auth runtime is the compiled app as a real process (OidcStack);
 * openid-client is the relying party.
 */
describe('OIDC provider: what relying parties expect', () => {
  const stack = new OidcStack();
  let op: OidcProject;
  let userCount = 0;

  beforeAll(async () => {
    await stack.start();
    op = await stack.oidcProject();
  }, 60_000);

  afterAll(() => stack.stop());

  const newUser = async () => {
    userCount += 1;
    const email = `std${userCount}@example.com`;
    return { id: (await stack.user(op.project, email)).id, email };
  };

  const discover = (c: CreatedClient) => client.discovery(new URL(op.issuer), c.client_id, c.client_secret, undefined, { execute: [client.allowInsecureRequests] });

  /** The browser's part: authorization URL → interaction → the user signs in and completes it → back at the relying party's redirect URI. */
  async function through(url: URL, email: string): Promise<{ callback: URL; browser: Browser }> {
    const browser = new Browser(stack.authUrl);
    const atLogin = await browser.follow(url.href);
    const uid = new URL(atLogin.url).searchParams.get('interaction');
    if (!uid) throw new Error(`no interaction: ${atLogin.url} ${atLogin.status} ${atLogin.body.slice(0, 300)}`);
    const session = await stack.signIn(op.projectKey, email);
    const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, { token: session.accessToken });
    expect(done.status).toBe(200);
    const landed = await browser.follow(String(done.body.redirect_to));
    return { callback: new URL(landed.url), browser };
  }

  describe('OAuth 2.1 clients that are not OpenID Connect clients (RFC 6749 §3.3)', () => {
    it('a request without the openid scope gets an access token and a refresh token, no ID token; with openid the ID token still carries auth_time', async () => {
      const user = await newUser();
      const c = await stack.client(op.project.id, { first_party: true });
      const config = await discover(c);
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, { redirect_uri: RP_REDIRECT, scope: 'profile email offline_access', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
      const { callback } = await through(url, user.email);
      expect(callback.origin + callback.pathname).toBe(RP_REDIRECT);
      expect(callback.searchParams.get('error')).toBeNull();
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'st' });
      expect(tokens).toEqual(expect.objectContaining({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'bearer', scope: 'profile email' }));
      expect(tokens.id_token).toBeUndefined();
      // The access token is the user's: introspection says so.
      const introspected = await client.tokenIntrospection(config, tokens.access_token);
      expect(introspected).toEqual(expect.objectContaining({ active: true, sub: user.id, client_id: c.client_id, scope: 'profile email' }));
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).toEqual(expect.any(String));
      expect(refreshed.id_token).toBeUndefined();

      // With openid and no max_age, auth_time is in the ID token all the same.
      const v2 = client.randomPKCECodeVerifier();
      const withOpenid = client.buildAuthorizationUrl(config, { redirect_uri: RP_REDIRECT, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(v2), code_challenge_method: 'S256', state: 's2' });
      const second = await through(withOpenid, user.email);
      const oidcTokens = await client.authorizationCodeGrant(config, second.callback, { pkceCodeVerifier: v2, expectedState: 's2' });
      expect(oidcTokens.claims()).toEqual(expect.objectContaining({ sub: user.id, auth_time: expect.any(Number), email: user.email }));
    });
  });
});
