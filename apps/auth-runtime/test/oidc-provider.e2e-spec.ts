import * as client from 'openid-client';
import { Browser, OidcStack, RP_REDIRECT, type OidcProject } from './support/oidc-stack';

/**
 * The OpenID Connect provider against a certified relying party (openid-client, OpenID Certified),
 * with the interaction completed through the API as an application's login page would.
 */
describe('OIDC provider with openid-client (confidential client, code + PKCE)', () => {
  const stack = new OidcStack();
  let op: OidcProject;

  beforeAll(async () => {
    await stack.start();
    op = await stack.oidcProject();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  async function discover(clientId: string, secret?: string) {
    return client.discovery(new URL(op.issuer), clientId, secret, undefined, { execute: [client.allowInsecureRequests] });
  }

  /** Runs the browser part: authorization request → login page → API completion → callback URL at the relying party. */
  async function authorize(config: client.Configuration, email: string, params: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: RP_REDIRECT,
      scope: 'openid email profile offline_access',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...params,
    });
    const browser = new Browser(stack.authUrl);
    const atLogin = await browser.follow(url.href);
    const uid = new URL(atLogin.url).searchParams.get('interaction');
    expect(uid).toBeTruthy();
    const session = await stack.signIn(op.projectKey, email);
    const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, { token: session.accessToken });
    expect(done.status).toBe(200);
    let landed = await browser.follow(String(done.body.redirect_to));
    if (landed.url.includes('/pages/sign-in')) {
      const consentUid = new URL(landed.url).searchParams.get('interaction')!;
      const described = await stack.interaction(op.projectKey, 'GET', consentUid);
      expect(described.body.prompt).toBe('consent');
      const consented = await stack.interaction(op.projectKey, 'POST', `${consentUid}/consent`, { token: session.accessToken, body: { scopes: described.body.scopes } });
      expect(consented.status).toBe(200);
      landed = await browser.follow(String(consented.body.redirect_to));
    }
    return { callback: new URL(landed.url), verifier, state, session, browser };
  }

  it('serves discovery at the issuer and as RFC 8414 metadata', async () => {
    const res = await fetch(`${op.issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(op.issuer);
    expect(doc.authorization_endpoint).toBe(`${op.issuer}/authorize`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
    const rfc8414 = await fetch(`${stack.authUrl}/.well-known/oauth-authorization-server/v1/projects/${op.project.id}`);
    expect(rfc8414.status).toBe(200);
    expect(((await rfc8414.json()) as { issuer: string }).issuer).toBe(op.issuer);
  });

  it('signs a user in: code + PKCE, ID token, userinfo, refresh rotation', async () => {
    const rp = await stack.client(op.project.id, { first_party: true });
    const config = await discover(rp.client_id, rp.client_secret);
    const user = await stack.user(op.project, 'ada@example.com');
    const { callback, verifier, state, session } = await authorize(config, 'ada@example.com');
    expect(callback.searchParams.get('iss')).toBe(op.issuer);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(user.id);
    expect(claims.email).toBe('ada@example.com');
    expect(claims.sid).toBe(session.sessionId);
    expect(typeof claims.auth_time).toBe('number');
    const info = await client.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info).toMatchObject({ sub: user.id, email: 'ada@example.com', email_verified: false });
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // Reuse of the rotated-out refresh token revokes the grant: the new one stops working too.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
