import { spawn } from 'node:child_process';
import { join } from 'node:path';
import * as jose from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { AuditEvent } from '@gatehouse/entities';
import { eventually } from '@gatehouse/testing';
import {
  Browser,
  OidcStack,
  RP_POST_LOGOUT,
  RP_REDIRECT,
  type CreatedClient,
  type OidcProject,
} from './support/oidc-stack';

/**
 * Each project's OpenID Connect provider against certified relying-party libraries (openid-client,
 * OpenID Certified; oauth4webapi) and the real auth runtime process, with the interaction
 * completed through the API as an application's own login page would complete it.
 */
describe('OIDC provider (docs/api-contract.md §11) with real relying parties', () => {
  const stack = new OidcStack();
  let op: OidcProject;
  let userCount = 0;

  beforeAll(async () => {
    await stack.start();
    op = await stack.oidcProject();
  }, 60_000);

  afterAll(() => stack.stop());

  const newUser = async (project = op) => {
    userCount += 1;
    const email = `user${userCount}@example.com`;
    const user = await stack.user(project.project, email);
    return { id: user.id, email };
  };

  async function discover(c: CreatedClient, project = op) {
    return client.discovery(new URL(project.issuer), c.client_id, c.client_secret, undefined, {
      execute: [client.allowInsecureRequests],
    });
  }

  async function authorizationUrl(
    config: client.Configuration,
    params: Record<string, string> = {},
  ) {
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
    return { url, verifier, state };
  }

  /**
   * The browser's part: authorization request → login page (`?interaction=`) → the page signs the
   * user in and completes through the API → (consent when asked) → back at the relying party.
   */
  async function signInThrough(
    config: client.Configuration,
    email: string,
    params: Record<string, string> = {},
    project = op,
  ) {
    const { url, verifier, state } = await authorizationUrl(config, params);
    const browser = new Browser(stack.authUrl);
    const atLogin = await browser.follow(url.href);
    const uid = new URL(atLogin.url).searchParams.get('interaction');
    if (!uid) throw new Error(`no interaction: ${atLogin.url}`);
    const session = await stack.signIn(project.projectKey, email);
    const done = await stack.interaction(project.projectKey, 'POST', `${uid}/complete`, {
      token: session.accessToken,
    });
    expect(done.status).toBe(200);
    let landed = await browser.follow(String(done.body.redirect_to));
    if (landed.url.includes('/pages/sign-in')) {
      const consentUid = new URL(landed.url).searchParams.get('interaction')!;
      const described = await stack.interaction(project.projectKey, 'GET', consentUid);
      expect(described.body.prompt).toBe('consent');
      const consented = await stack.interaction(
        project.projectKey,
        'POST',
        `${consentUid}/consent`,
        { token: session.accessToken, body: { scopes: described.body.scopes } },
      );
      expect(consented.status).toBe(200);
      landed = await browser.follow(String(consented.body.redirect_to));
    }
    return { callback: new URL(landed.url), verifier, state, session, browser, uid };
  }

  async function tokenRequest(body: Record<string, string>, c?: CreatedClient) {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (c?.client_secret)
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(c.client_id)}:${encodeURIComponent(c.client_secret)}`).toString('base64')}`;
    const res = await fetch(`${op.issuer}/token`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(
        c?.client_secret ? body : { ...body, ...(c ? { client_id: c.client_id } : {}) },
      ),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const auditActions = async (projectId: string) =>
    (
      await stack.cp.dataSource
        .getRepository(AuditEvent)
        .find({ where: { projectId }, order: { createdAt: 'ASC' } })
    ).map((e) => e.action);

  describe('discovery', () => {
    it('serves the configuration at the issuer and as RFC 8414 metadata, code flow with S256 only', async () => {
      const res = await fetch(`${op.issuer}/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as Record<string, unknown>;
      expect(doc).toMatchObject({
        issuer: op.issuer,
        authorization_endpoint: `${op.issuer}/authorize`,
        token_endpoint: `${op.issuer}/token`,
        userinfo_endpoint: `${op.issuer}/userinfo`,
        jwks_uri: `${op.issuer}/jwks`,
        revocation_endpoint: `${op.issuer}/revoke`,
        introspection_endpoint: `${op.issuer}/introspect`,
        end_session_endpoint: `${op.issuer}/end-session`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(doc.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
      );
      expect(doc.grant_types_supported).not.toContain('implicit');
      expect(doc.id_token_signing_alg_values_supported).toEqual(
        expect.arrayContaining(['ES256', 'RS256']),
      );
      expect(doc.scopes_supported).toEqual(
        expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']),
      );
      const rfc8414 = await fetch(
        `${stack.authUrl}/.well-known/oauth-authorization-server/v1/projects/${op.project.id}`,
      );
      expect(rfc8414.status).toBe(200);
      expect(((await rfc8414.json()) as { issuer: string }).issuer).toBe(op.issuer);
    });

    it('serves the project signing keys (ES256 and RS256, public members only) at jwks_uri', async () => {
      const res = await fetch(`${op.issuer}/jwks`);
      const { keys } = (await res.json()) as { keys: Record<string, unknown>[] };
      expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
      for (const k of keys)
        for (const priv of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(priv);
    });

    it('is 404 not-found for a project without the provider, an unknown project and an unknown endpoint; endpoint URLs ignore the Host header', async () => {
      const off = await fetch(
        `${stack.authUrl}/v1/projects/${stack.tenant.project.id}/.well-known/openid-configuration`,
      );
      expect(off.status).toBe(404);
      expect(off.headers.get('content-type')).toContain('application/problem+json');
      expect(((await off.json()) as { type: string }).type).toMatch(/\/not-found$/);
      expect(
        (
          await fetch(
            `${stack.authUrl}/v1/projects/00000000-0000-4000-8000-000000000000/.well-known/openid-configuration`,
          )
        ).status,
      ).toBe(404);
      expect((await fetch(`${stack.authUrl}/v1/projects/not-a-uuid/token`)).status).toBe(404);
      expect((await fetch(`${op.issuer}/nothing-here`)).status).toBe(404);
      const forged = await fetch(`${op.issuer}/.well-known/openid-configuration`, {
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      });
      expect(((await forged.json()) as { token_endpoint: string }).token_endpoint).toBe(
        `${op.issuer}/token`,
      );
    });
  });

  describe('openid-client, confidential client', () => {
    it('signs a user in: code + PKCE, ID token, userinfo, refresh rotation and reuse; a grant event', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { callback, verifier, state, session } = await signInThrough(config, user.email);
      expect(callback.searchParams.get('iss')).toBe(op.issuer);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({
        iss: op.issuer,
        aud: rp.client_id,
        sub: user.id,
        email: user.email,
        email_verified: false,
        preferred_username: user.email,
        sid: session.sessionId,
      });
      expect(typeof claims.auth_time).toBe('number');
      expect(claims.acr).toBe('urn:gatehouse:loa:1');
      expect(claims.amr).toEqual(['pwd']);
      expect(jose.decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256'); // the default (OpenID Connect Dynamic Client Registration §2)
      expect(await client.fetchUserInfo(config, tokens.access_token, user.id)).toMatchObject({
        sub: user.id,
        email: user.email,
        email_verified: false,
      });
      expect(tokens.refresh_token).toBeTruthy();
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(refreshed.claims()?.sub).toBe(user.id);
      // Reuse of the rotated-out refresh token revokes the grant: the new one stops working too.
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(
        client.refreshTokenGrant(config, refreshed.refresh_token!),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(
        client.fetchUserInfo(config, refreshed.access_token, user.id),
      ).rejects.toBeTruthy();
      const actions = await auditActions(op.project.id);
      expect(actions).toContain('oauth_grant.created');
      expect(actions).toContain('oauth_grant.revoked');
    });

    it('asks a third-party client for consent; the granted subset is what the tokens carry; abort ends at the client with access_denied', async () => {
      const rp = await stack.client(op.project.id, { first_party: false });
      const config = await discover(rp);
      const user = await newUser();
      const { url, verifier, state } = await authorizationUrl(config, {
        scope: 'openid email profile',
      });
      const browser = new Browser(stack.authUrl);
      const uid = new URL((await browser.follow(url.href)).url).searchParams.get('interaction')!;
      const described = await stack.interaction(op.projectKey, 'GET', uid);
      expect(described.status).toBe(200);
      expect(described.body).toMatchObject({
        uid,
        prompt: 'login',
        client: { client_id: rp.client_id, name: 'Relying party', first_party: false },
        scopes: ['openid', 'email', 'profile'],
      });
      expect(Date.parse(String(described.body.expires_at))).toBeGreaterThan(Date.now());
      const session = await stack.signIn(op.projectKey, user.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      const atConsent = await browser.follow(String(done.body.redirect_to));
      const consentUid = new URL(atConsent.url).searchParams.get('interaction')!;
      expect((await stack.interaction(op.projectKey, 'GET', consentUid)).body.prompt).toBe(
        'consent',
      );
      // Completing a consent interaction of a third-party client without choosing scopes is refused.
      expect(
        (
          await stack.interaction(op.projectKey, 'POST', `${consentUid}/complete`, {
            token: session.accessToken,
          })
        ).status,
      ).toBe(409);
      // Scopes that were not requested are refused.
      const tooMuch = await stack.interaction(op.projectKey, 'POST', `${consentUid}/consent`, {
        token: session.accessToken,
        body: { scopes: ['openid', 'offline_access'] },
      });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body.errors).toHaveProperty('scopes');
      const consented = await stack.interaction(op.projectKey, 'POST', `${consentUid}/consent`, {
        token: session.accessToken,
        body: { scopes: ['openid', 'email'] },
      });
      expect(consented.status).toBe(200);
      const landed = new URL((await browser.follow(String(consented.body.redirect_to))).url);
      expect(landed.origin + landed.pathname).toBe(RP_REDIRECT);
      const tokens = await client.authorizationCodeGrant(config, landed, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
      expect(tokens.claims()).toMatchObject({ sub: user.id, email: user.email });
      expect(tokens.claims()).not.toHaveProperty('preferred_username');
      expect(tokens.refresh_token).toBeUndefined();

      // Abort: the relying party gets error=access_denied.
      const second = await authorizationUrl(config, { scope: 'openid email', prompt: 'login' });
      const b2 = new Browser(stack.authUrl);
      const uid2 = new URL((await b2.follow(second.url.href)).url).searchParams.get('interaction')!;
      const aborted = await stack.interaction(op.projectKey, 'POST', `${uid2}/abort`);
      expect(aborted.status).toBe(200);
      const denied = new URL((await b2.follow(String(aborted.body.redirect_to))).url);
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe(second.state);
      // A finished interaction is gone.
      expect((await stack.interaction(op.projectKey, 'POST', `${uid2}/abort`)).status).toBe(400);
    });

    it('client credentials, introspection and revocation', async () => {
      const rp = await stack.client(op.project.id, {
        grant_types: ['client_credentials'],
        redirect_uris: [],
      });
      const config = await discover(rp);
      const cc = await client.clientCredentialsGrant(config);
      expect(cc.access_token).toBeTruthy();
      const active = await client.tokenIntrospection(config, cc.access_token);
      expect(active).toMatchObject({ active: true, client_id: rp.client_id });
      await client.tokenRevocation(config, cc.access_token);
      expect((await client.tokenIntrospection(config, cc.access_token)).active).toBe(false);
      // A wrong secret is invalid_client.
      const wrong = await discover({
        client_id: rp.client_id,
        client_secret: `${rp.client_secret!}x`,
      });
      await expect(client.clientCredentialsGrant(wrong)).rejects.toMatchObject({
        error: 'invalid_client',
      });
    });

    it('signs the ID token RS256 for a client registered with id_token_signed_response_alg RS256', async () => {
      const rp = await stack.client(op.project.id, {
        first_party: true,
        id_token_signed_response_alg: 'RS256',
      });
      const config = await discover(rp);
      const user = await newUser();
      const { callback, verifier, state } = await signInThrough(config, user.email);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(jose.decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
      const jwks = jose.createRemoteJWKSet(new URL(`${op.issuer}/jwks`));
      const { payload } = await jose.jwtVerify(tokens.id_token!, jwks, {
        issuer: op.issuer,
        audience: rp.client_id,
      });
      expect(payload.sub).toBe(user.id);
    });

    it("issues an RFC 9068 JWT access token (typ at+jwt) to a first-party client for an API on the project's allowed origins, and to no one else", async () => {
      const api = await stack.oidcProject();
      expect(
        (
          await stack.admin().patch(`/v1/admin/projects/${api.project.id}`, {
            allowed_origins: ['http://127.0.0.1:5599', 'https://api.example.com'],
          })
        ).status,
      ).toBe(200);
      const rp = await stack.client(api.project.id, {
        first_party: true,
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      });
      const config = await discover(rp, api);
      const user = await newUser(api);
      const { callback, verifier, state } = await signInThrough(
        config,
        user.email,
        { resource: 'https://api.example.com/v1' },
        api,
      );
      const tokens = await client.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: verifier, expectedState: state },
        { resource: 'https://api.example.com/v1' },
      );
      expect(jose.decodeProtectedHeader(tokens.access_token)).toMatchObject({
        typ: 'at+jwt',
        alg: 'ES256',
      });
      const { payload } = await jose.jwtVerify(
        tokens.access_token,
        jose.createRemoteJWKSet(new URL(`${api.issuer}/jwks`)),
        { issuer: api.issuer, audience: 'https://api.example.com/v1', typ: 'at+jwt' },
      );
      expect(payload).toMatchObject({ sub: user.id, client_id: rp.client_id });

      // Another company's API, or any URI: refused, by the code flow and by client credentials.
      await expect(
        client.clientCredentialsGrant(config, { resource: 'https://api.victim.example/' }),
      ).rejects.toMatchObject({ error: 'invalid_target' });
      await expect(
        client.clientCredentialsGrant(config, { resource: 'urn:anything' }),
      ).rejects.toMatchObject({ error: 'invalid_target' });
      const foreign = await authorizationUrl(config, { resource: 'https://api.victim.example/' });
      expect(
        new URL((await new Browser(stack.authUrl).follow(foreign.url.href)).url).searchParams.get(
          'error',
        ),
      ).toBe('invalid_target');
      // A third-party client gets no token for the project's own API either.
      const third = await stack.client(api.project.id, {
        first_party: false,
        grant_types: ['client_credentials'],
        redirect_uris: [],
      });
      await expect(
        client.clientCredentialsGrant(await discover(third, api), {
          resource: 'https://api.example.com/v1',
        }),
      ).rejects.toMatchObject({ error: 'invalid_target' });
    });

    it('a client introspects its own tokens only', async () => {
      const a = await stack.client(op.project.id, {
        grant_types: ['client_credentials'],
        redirect_uris: [],
      });
      const b = await stack.client(op.project.id, {
        grant_types: ['client_credentials'],
        redirect_uris: [],
      });
      const token = (await client.clientCredentialsGrant(await discover(a))).access_token;
      expect((await client.tokenIntrospection(await discover(a), token)).active).toBe(true);
      expect((await client.tokenIntrospection(await discover(b), token)).active).toBe(false);
    });

    it('RP-initiated logout ends the provider session and the Gatehouse session behind it', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { callback, verifier, state, session, browser } = await signInThrough(
        config,
        user.email,
      );
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      const logout = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: RP_POST_LOGOUT,
        state: 'bye',
      });
      const confirm = await browser.get(logout.href);
      expect(confirm.status).toBe(200);
      expect(confirm.body).toContain('Sign out');
      const form = /<form[^>]*action="([^"]+)"[\s\S]*?<\/form>/.exec(confirm.body)!;
      const fields = Object.fromEntries(
        [...form[0].matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [
          m[1],
          m[2],
        ]),
      );
      const done = await browser.post(new URL(form[1], op.issuer).href, {
        ...fields,
        logout: 'yes',
      });
      expect(done.location).toBe(`${RP_POST_LOGOUT}?state=bye`);
      const row = await stack.cp.dataSource.query(
        `SELECT revoked_at, revoke_reason FROM sessions WHERE id = $1`,
        [session.sessionId],
      );
      expect(row[0].revoked_at).not.toBeNull();
      expect(row[0].revoke_reason).toBe('oidc_logout');
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      // The provider's session is gone too: prompt=none now needs a login.
      const again = await authorizationUrl(config, { prompt: 'none' });
      const back = new URL((await browser.follow(again.url.href)).url);
      expect(back.searchParams.get('error')).toBe('login_required');
    });
  });

  describe('oauth4webapi, public client (PKCE only)', () => {
    it('signs a user in with no secret, and the second authorization reuses the provider session', async () => {
      const rp = await stack.client(op.project.id, {
        token_endpoint_auth_method: 'none',
        first_party: true,
      });
      const issuer = new URL(op.issuer);
      const as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, {
          algorithm: 'oidc',
          [oauth.allowInsecureRequests]: true,
        }),
      );
      const c: oauth.Client = { client_id: rp.client_id };
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: rp.client_id,
        response_type: 'code',
        redirect_uri: RP_REDIRECT,
        scope: 'openid email',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const user = await newUser();
      const browser = new Browser(stack.authUrl);
      const uid = new URL((await browser.follow(url.href)).url).searchParams.get('interaction')!;
      const session = await stack.signIn(op.projectKey, user.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      const callback = new URL((await browser.follow(String(done.body.redirect_to))).url);
      const params = oauth.validateAuthResponse(as, c, callback, state);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        c,
        oauth.None(),
        params,
        RP_REDIRECT,
        verifier,
        { [oauth.allowInsecureRequests]: true },
      );
      const result = await oauth.processAuthorizationCodeResponse(as, c, response);
      expect(oauth.getValidatedIdTokenClaims(result)?.sub).toBe(user.id);
      expect(result.refresh_token).toBeTruthy();

      // Signed in at the provider: the next request (prompt=none) goes straight back with a code.
      const silent = new URL(url);
      silent.searchParams.set('prompt', 'none');
      silent.searchParams.set('state', 's2');
      const back = new URL((await browser.follow(silent.href)).url);
      expect(back.searchParams.get('code')).toBeTruthy();
    });
  });

  describe('refused', () => {
    it('an unregistered or near-match redirect URI never redirects', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      for (const redirect of [
        `${RP_REDIRECT}/`,
        `${RP_REDIRECT}?x=1`,
        'http://127.0.0.1:5599/callbacK',
        'http://127.0.0.1:5598/callback',
        'https://evil.example/callback',
      ]) {
        const { url } = await authorizationUrl(config, { redirect_uri: redirect });
        const res = await new Browser(stack.authUrl).get(url.href);
        expect(res.location).toContain(`${op.issuer}/pages/error?error=invalid_redirect_uri`);
      }
    });

    it('a PKCE mismatch, a request without PKCE, a code of another client, a replayed code (revoking what it issued)', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const other = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();

      // Without code_challenge: refused at the authorization endpoint (PKCE is required for every client).
      const noPkce = new URL(`${op.issuer}/authorize`);
      noPkce.search = new URLSearchParams({
        client_id: rp.client_id,
        response_type: 'code',
        redirect_uri: RP_REDIRECT,
        scope: 'openid',
        state: 'x',
      }).toString();
      const refused = new URL((await new Browser(stack.authUrl).follow(noPkce.href)).url);
      expect(refused.searchParams.get('error')).toBe('invalid_request');

      const first = await signInThrough(config, user.email);
      const code = first.callback.searchParams.get('code')!;
      const wrongVerifier = await tokenRequest(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: RP_REDIRECT,
          code_verifier: client.randomPKCECodeVerifier(),
        },
        rp,
      );
      expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const otherClient = await tokenRequest(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: RP_REDIRECT,
          code_verifier: first.verifier,
        },
        other,
      );
      expect(otherClient).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const ok = await tokenRequest(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: RP_REDIRECT,
          code_verifier: first.verifier,
        },
        rp,
      );
      expect(ok.status).toBe(200);
      const replay = await tokenRequest(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: RP_REDIRECT,
          code_verifier: first.verifier,
        },
        rp,
      );
      expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      // The replay revoked the grant: the tokens the code issued are dead.
      expect((await client.tokenIntrospection(config, String(ok.body.access_token))).active).toBe(
        false,
      );
      expect(
        (
          await tokenRequest(
            { grant_type: 'refresh_token', refresh_token: String(ok.body.refresh_token) },
            rp,
          )
        ).body.error,
      ).toBe('invalid_grant');
    });

    it('a code exchanged twice at once: exactly one exchange wins, and the grant ends', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { callback, verifier } = await signInThrough(config, user.email);
      const code = callback.searchParams.get('code')!;
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          tokenRequest(
            {
              grant_type: 'authorization_code',
              code,
              redirect_uri: RP_REDIRECT,
              code_verifier: verifier,
            },
            rp,
          ),
        ),
      );
      const wins = results.filter((r) => r.status === 200);
      expect(wins).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200))
        expect(r).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(
        (await client.tokenIntrospection(config, String(wins[0].body.access_token))).active,
      ).toBe(false);
    });

    it('prompt=none without a session is login_required; a client of another project is unknown here', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const { url } = await authorizationUrl(config, { prompt: 'none' });
      const back = new URL((await new Browser(stack.authUrl).follow(url.href)).url);
      expect(back.origin + back.pathname).toBe(RP_REDIRECT);
      expect(back.searchParams.get('error')).toBe('login_required');
      expect(back.searchParams.get('iss')).toBe(op.issuer);

      const elsewhere = await stack.oidcProject();
      const foreign = await stack.client(elsewhere.project.id, { first_party: true });
      const atOther = new URL(url);
      atOther.searchParams.set('client_id', foreign.client_id);
      const res = await new Browser(stack.authUrl).follow(atOther.href);
      expect(res.url).toContain('/pages/error');
      expect(new URL(res.url).searchParams.get('error')).toBe('invalid_client');
      expect((await tokenRequest({ grant_type: 'client_credentials' }, foreign)).body.error).toBe(
        'invalid_client',
      );
    });

    it('revoking the Gatehouse session, or disabling the user, ends the grant at once', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const a = await newUser();
      const first = await signInThrough(config, a.email);
      const tokensA = await client.authorizationCodeGrant(config, first.callback, {
        pkceCodeVerifier: first.verifier,
        expectedState: first.state,
      });
      const signOut = await fetch(`${stack.authUrl}/v1/auth/sign-out`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${first.session.accessToken}`,
          'x-service-project-key': op.projectKey,
        },
      });
      expect(signOut.status).toBe(204);
      await expect(client.refreshTokenGrant(config, tokensA.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(client.fetchUserInfo(config, tokensA.access_token, a.id)).rejects.toBeTruthy();

      const b = await newUser();
      const second = await signInThrough(config, b.email);
      const tokensB = await client.authorizationCodeGrant(config, second.callback, {
        pkceCodeVerifier: second.verifier,
        expectedState: second.state,
      });
      const disabled = await stack.admin().patch(`/v1/admin/users/${b.id}`, { status: 'disabled' });
      expect(disabled.status).toBe(200);
      await expect(client.refreshTokenGrant(config, tokensB.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect((await client.tokenIntrospection(config, tokensB.access_token)).active).toBe(false);
    });

    it('a disabled project: discovery and every endpoint 404; the interaction API 404', async () => {
      const project = await stack.oidcProject();
      const rp = await stack.client(project.project.id, { first_party: true });
      const config = await discover(rp, project);
      const { url } = await authorizationUrl(config);
      const browser = new Browser(stack.authUrl);
      const uid = new URL((await browser.follow(url.href)).url).searchParams.get('interaction')!;
      expect(
        (
          await stack.admin().patch(`/v1/admin/projects/${project.project.id}`, {
            settings: { oidc: { enabled: false } },
          })
        ).status,
      ).toBe(200);
      expect((await fetch(`${project.issuer}/.well-known/openid-configuration`)).status).toBe(404);
      expect((await fetch(`${project.issuer}/token`, { method: 'POST' })).status).toBe(404);
      expect((await stack.interaction(project.projectKey, 'GET', uid)).status).toBe(404);
    });
  });

  describe('examples/oidc-relying-party', () => {
    it('signs a user in to the example app as docs/oidc.md tells a newcomer to run it', async () => {
      const port = 5600 + Math.floor(Math.random() * 300);
      const base = `http://127.0.0.1:${port}`;
      const rp = await stack.client(op.project.id, {
        name: 'Example app',
        redirect_uris: [`${base}/callback`],
        first_party: true,
      });
      const example = spawn(
        process.execPath,
        [join(__dirname, '../../../examples/oidc-relying-party/server.mjs')],
        {
          env: {
            // eslint-disable-next-line no-restricted-properties -- the child needs PATH
            PATH: process.env.PATH ?? '',
            ISSUER: op.issuer,
            CLIENT_ID: rp.client_id,
            CLIENT_SECRET: rp.client_secret!,
            PORT: String(port),
            BASE_URL: base,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      try {
        await new Promise<void>((resolve, reject) => {
          let out = '';
          example.stdout.on(
            'data',
            (d: Buffer) =>
              (out += d.toString()) && out.includes('example relying party on') && resolve(),
          );
          example.stderr.on('data', (d: Buffer) => (out += d.toString()));
          example.once('exit', () => reject(new Error(`example exited: ${out}`)));
        });
        const user = await newUser();
        const browser = new Browser(stack.authUrl);
        const login = await browser.get(`${base}/login`);
        const atLogin = await browser.follow(login.location!);
        const uid = new URL(atLogin.url).searchParams.get('interaction')!;
        const session = await stack.signIn(op.projectKey, user.email);
        const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
          token: session.accessToken,
        });
        const callback = await browser.follow(String(done.body.redirect_to));
        expect(callback.url.startsWith(`${base}/callback?`)).toBe(true);
        const afterCallback = await browser.get(callback.url);
        expect(afterCallback.location).toBe(`${base}/`);
        const home = await browser.get(`${base}/`);
        expect(home.body).toContain('Signed in');
        expect(home.body).toContain(user.email);
      } finally {
        example.kill();
      }
    });
  });

  describe('dynamic client registration (RFC 7591)', () => {
    it('is off unless the project opens it; then registers a client stored like an admin one (hashed secret, never first-party)', async () => {
      const closed = await fetch(`${op.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [RP_REDIRECT] }),
      });
      expect(closed.status).toBe(404);
      const open = await stack.oidcProject({ dynamic_registration: true });
      const doc = (await (
        await fetch(`${open.issuer}/.well-known/openid-configuration`)
      ).json()) as { registration_endpoint: string };
      expect(doc.registration_endpoint).toBe(`${open.issuer}/register`);
      const register = (body: object) =>
        fetch(doc.registration_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const firstParty = await register({ redirect_uris: [RP_REDIRECT], first_party: true });
      expect(firstParty.status).toBe(400);
      expect(((await firstParty.json()) as { error: string }).error).toBe(
        'invalid_client_metadata',
      );
      const plainHttp = await register({ redirect_uris: ['http://app.example.com/callback'] });
      expect(plainHttp.status).toBe(400);
      expect(((await plainHttp.json()) as { error: string }).error).toBe('invalid_redirect_uri');
      const res = await register({
        client_name: 'Self-registered',
        redirect_uris: [RP_REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
      });
      expect(res.status).toBe(201);
      const registered = (await res.json()) as {
        client_id: string;
        client_secret: string;
        registration_access_token: string;
        registration_client_uri: string;
      };
      expect(registered.client_id).toMatch(/^oc_/);
      const rows = await stack.cp.dataSource.query(
        `SELECT secret_hash, first_party, name FROM oauth_clients WHERE client_id = $1`,
        [registered.client_id],
      );
      expect(rows[0]).toMatchObject({ first_party: false, name: 'Self-registered' });
      expect(rows[0].secret_hash).not.toContain(registered.client_secret);
      const read = await fetch(registered.registration_client_uri, {
        headers: { authorization: `Bearer ${registered.registration_access_token}` },
      });
      expect(read.status).toBe(200);
      // The read-back never carries a secret (what is stored is its hash).
      expect(await read.json()).not.toHaveProperty('client_secret');
      // Metadata Gatehouse does not honour is refused, not silently dropped.
      const jwksUri = await register({
        redirect_uris: [RP_REDIRECT],
        jwks_uri: 'https://rp.example/jwks',
      });
      expect(jwksUri.status).toBe(400);
      expect(
        (
          await fetch(registered.registration_client_uri, {
            headers: { authorization: 'Bearer wrong' },
          })
        ).status,
      ).toBe(401);
      // The registered client works with its secret, and its admin view shows it.
      const config = await client.discovery(
        new URL(open.issuer),
        registered.client_id,
        registered.client_secret,
        undefined,
        { execute: [client.allowInsecureRequests] },
      );
      const user = await newUser(open);
      const { callback, verifier, state } = await signInThrough(config, user.email, {}, open);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.claims()?.sub).toBe(user.id);
      const admin = await stack
        .admin()
        .get(`/v1/admin/projects/${open.project.id}/oauth-clients/${registered.client_id}`);
      expect(admin.status).toBe(200);
      expect(admin.body).toMatchObject({ name: 'Self-registered', first_party: false });

      // Open registration writes a row per request: at most 20 per address and hour, then 429 with Retry-After.
      let limited: Response | undefined;
      for (let i = 0; i < 25 && !limited; i++) {
        const res = await register({ client_name: `Flood ${i}`, redirect_uris: [RP_REDIRECT] });
        if (res.status === 429) limited = res;
      }
      expect(limited?.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
      const count = await stack.cp.dataSource.query(
        `SELECT count(*)::int AS n FROM oauth_clients WHERE project_id = $1`,
        [open.project.id],
      );
      expect(count[0].n).toBeLessThanOrEqual(20);
    });
  });

  describe('security events and assurance', () => {
    it('a refused token request is an oauth_token.failed event (client, grant type, error; never the secret)', async () => {
      const rp = await stack.client(op.project.id, {
        grant_types: ['client_credentials'],
        redirect_uris: [],
      });
      const wrongSecret = `${rp.client_secret!}-wrong`;
      const res = await tokenRequest(
        { grant_type: 'client_credentials' },
        { client_id: rp.client_id, client_secret: wrongSecret },
      );
      expect(res.body.error).toBe('invalid_client');
      let found: AuditEvent | undefined;
      await eventually(async () => {
        const rows = await stack.cp.dataSource
          .getRepository(AuditEvent)
          .find({ where: { projectId: op.project.id, action: 'oauth_token.failed' } });
        found = rows.find((r) => (r.metadata as { client_id?: string }).client_id === rp.client_id);
        return found !== undefined;
      });
      expect(found!.metadata).toMatchObject({
        client_id: rp.client_id,
        grant_type: 'client_credentials',
        error: 'invalid_client',
      });
      expect(JSON.stringify(found)).not.toContain(wrongSecret);
    });

    it('acr_values naming the second level needs a session signed in with a second factor or a passkey', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { url } = await authorizationUrl(config, { acr_values: 'urn:gatehouse:loa:2' });
      const uid = new URL((await new Browser(stack.authUrl).follow(url.href)).url).searchParams.get(
        'interaction',
      )!;
      const session = await stack.signIn(op.projectKey, user.email);
      const refused = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      expect(refused.status).toBe(403);
      expect(String(refused.body.detail)).toContain('second factor');
    });
  });

  describe('interaction API', () => {
    it('unknown uid 400 invalid-token; another project 404; no session 401; stale session under prompt=login 403 reauthentication-required', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const unknown = await stack.interaction(op.projectKey, 'GET', 'no-such-interaction');
      expect(unknown.status).toBe(400);
      expect(String(unknown.body.type)).toMatch(/\/invalid-token$/);
      expect((await stack.interaction(op.projectKey, 'GET', '../../etc')).status).toBe(404);

      const session = await stack.signIn(op.projectKey, user.email);
      // No wait: the proof and the request's start are ordered to the millisecond, even within one second.
      const { url } = await authorizationUrl(config, { prompt: 'login' });
      const browser = new Browser(stack.authUrl);
      const uid = new URL((await browser.follow(url.href)).url).searchParams.get('interaction')!;
      const other = await stack.oidcProject();
      expect((await stack.interaction(other.projectKey, 'GET', uid)).status).toBe(404);
      expect((await stack.interaction(op.projectKey, 'POST', `${uid}/complete`)).status).toBe(401);
      // The session proved the password before the client asked for a fresh login.
      const stale = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      expect(stale.status).toBe(403);
      expect(String(stale.body.type)).toMatch(/\/reauthentication-required$/);
      const fresh = await stack.signIn(op.projectKey, user.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: fresh.accessToken,
      });
      expect(done.status).toBe(200);
      // Completed once: a second completion is refused.
      expect(
        (
          await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
            token: fresh.accessToken,
          })
        ).status,
      ).toBe(400);
    });

    it("prompt=consent asks a first-party client's user again (completed without choosing scopes); max_age needs a proof that recent", async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { url, verifier, state } = await authorizationUrl(config, { prompt: 'login consent' });
      const browser = new Browser(stack.authUrl);
      const uid = new URL((await browser.follow(url.href)).url).searchParams.get('interaction')!;
      const session = await stack.signIn(op.projectKey, user.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      const atConsent = new URL((await browser.follow(String(done.body.redirect_to))).url);
      const consentUid = atConsent.searchParams.get('interaction')!;
      expect((await stack.interaction(op.projectKey, 'GET', consentUid)).body).toMatchObject({
        prompt: 'consent',
        client: { first_party: true },
      });
      const granted = await stack.interaction(op.projectKey, 'POST', `${consentUid}/complete`, {
        token: session.accessToken,
      });
      expect(granted.status).toBe(200);
      const callback = new URL((await browser.follow(String(granted.body.redirect_to))).url);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.claims()?.sub).toBe(user.id);

      // max_age in whole seconds, with room for a sign-in and a completion on a loaded machine
      // (auth_time is floored to the second: with max_age=1 a proof made late in a second and
      // used a few hundred milliseconds later was already too old).
      const aged = await authorizationUrl(config, { max_age: '3' });
      const b2 = new Browser(stack.authUrl);
      const uid2 = new URL((await b2.follow(aged.url.href)).url).searchParams.get('interaction')!;
      const older = await stack.signIn(op.projectKey, user.email);
      await new Promise((r) => setTimeout(r, 4100));
      const stale = await stack.interaction(op.projectKey, 'POST', `${uid2}/complete`, {
        token: older.accessToken,
      });
      expect(stale.status).toBe(403);
      expect(String(stale.body.type)).toMatch(/\/reauthentication-required$/);
      const recent = await stack.signIn(op.projectKey, user.email);
      const ok = await stack.interaction(op.projectKey, 'POST', `${uid2}/complete`, {
        token: recent.accessToken,
      });
      expect(ok.status).toBe(200);
      const back = new URL((await b2.follow(String(ok.body.redirect_to))).url);
      const aging = await client.authorizationCodeGrant(config, back, {
        pkceCodeVerifier: aged.verifier,
        expectedState: aged.state,
        maxAge: 60,
      });
      expect(aging.claims()?.auth_time).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);
    });

    it("sends the browser to the project's login_url (an application page) with the interaction, keeping its query", async () => {
      const loginUrl = 'http://127.0.0.1:5599/login?from=gatehouse';
      const project = await stack.oidcProject({ login_url: loginUrl }, [RP_REDIRECT, loginUrl]);
      const rp = await stack.client(project.project.id, { first_party: true });
      const config = await discover(rp, project);
      const user = await newUser(project);
      const { url, verifier, state } = await authorizationUrl(config);
      const browser = new Browser(stack.authUrl);
      const atLogin = new URL((await browser.follow(url.href)).url);
      expect(atLogin.origin + atLogin.pathname).toBe('http://127.0.0.1:5599/login');
      expect(atLogin.searchParams.get('from')).toBe('gatehouse');
      const uid = atLogin.searchParams.get('interaction')!;
      const session = await stack.signIn(project.projectKey, user.email);
      const done = await stack.interaction(project.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      const callback = new URL((await browser.follow(String(done.body.redirect_to))).url);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.claims()?.sub).toBe(user.id);
    });

    it("the browser that started the request cannot collect a result without the completion value (a victim completing an attacker's interaction gives the attacker nothing)", async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const victim = await newUser();
      const { url } = await authorizationUrl(config);
      const attacker = new Browser(stack.authUrl);
      const uid = new URL((await attacker.follow(url.href)).url).searchParams.get('interaction')!;
      const session = await stack.signIn(op.projectKey, victim.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      const resume = new URL(String(done.body.redirect_to));
      resume.searchParams.delete('completion');
      const stolen = await attacker.follow(resume.href);
      expect(stolen.url).toContain('/pages/error');
      expect(stolen.url).not.toContain('code=');
      // Nor by another spelling of the resume route: a trailing slash, percent-encoding, HEAD.
      const uidEncoded = [...uid]
        .map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
        .join('');
      for (const variant of [
        `${resume.origin}${resume.pathname}/`,
        `${resume.origin}${resume.pathname.replace(uid, uidEncoded)}`,
      ]) {
        const res = await attacker.follow(variant);
        expect(res.url).not.toContain('code=');
      }
      const head = await fetch(resume.href, { method: 'HEAD', redirect: 'manual' });
      expect(head.headers.get('location') ?? '').not.toContain('code=');
      // And the victim's browser, which has the completion value but not the interaction cookie, gets no code either.
      const victimBrowser = await new Browser(stack.authUrl).follow(String(done.body.redirect_to));
      expect(victimBrowser.url).not.toContain('code=');
      // Whatever the attacker's browser did, it holds no sign-in: prompt=none still needs a login.
      const silent = await authorizationUrl(config, { prompt: 'none' });
      expect(new URL((await attacker.follow(silent.url.href)).url).searchParams.get('error')).toBe(
        'login_required',
      );
    });

    it('a browser signed in as one user completes a fresh sign-in as another (the new account, not a sign-out detour)', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const first = await newUser();
      const second = await newUser();
      const one = await signInThrough(config, first.email);
      expect(
        (
          await client.authorizationCodeGrant(config, one.callback, {
            pkceCodeVerifier: one.verifier,
            expectedState: one.state,
          })
        ).claims()?.sub,
      ).toBe(first.id);
      const again = await authorizationUrl(config, { prompt: 'login' });
      const uid = new URL((await one.browser.follow(again.url.href)).url).searchParams.get(
        'interaction',
      )!;
      const session = await stack.signIn(op.projectKey, second.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      expect(done.status).toBe(200);
      const callback = new URL((await one.browser.follow(String(done.body.redirect_to))).url);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: again.verifier,
        expectedState: again.state,
      });
      expect(tokens.claims()).toMatchObject({ sub: second.id, sid: session.sessionId });
    });
  });
});
