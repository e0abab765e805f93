import * as client from 'openid-client';
import {
  Browser,
  OidcStack,
  RP_REDIRECT,
  type CreatedClient,
  type OidcProject,
} from './support/oidc-stack';

function headerOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
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

  const discover = (c: CreatedClient) =>
    client.discovery(new URL(op.issuer), c.client_id, c.client_secret, undefined, {
      execute: [client.allowInsecureRequests],
    });

  /** The browser's part: authorization URL → interaction → the user signs in and completes it → back at the relying party's redirect URI. */
  async function through(url: URL, email: string): Promise<{ callback: URL; browser: Browser }> {
    const browser = new Browser(stack.authUrl);
    const atLogin = await browser.follow(url.href);
    const uid = new URL(atLogin.url).searchParams.get('interaction');
    if (!uid)
      throw new Error(
        `no interaction: ${atLogin.url} ${atLogin.status} ${atLogin.body.slice(0, 300)}`,
      );
    const session = await stack.signIn(op.projectKey, email);
    const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
      token: session.accessToken,
    });
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
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'profile email offline_access',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'st',
      });
      const { callback } = await through(url, user.email);
      expect(callback.origin + callback.pathname).toBe(RP_REDIRECT);
      expect(callback.searchParams.get('error')).toBeNull();
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: 'st',
      });
      expect(tokens).toEqual(
        expect.objectContaining({
          access_token: expect.any(String),
          refresh_token: expect.any(String),
          token_type: 'bearer',
          scope: 'profile email',
        }),
      );
      expect(tokens.id_token).toBeUndefined();
      // The access token is the user's: introspection says so.
      const introspected = await client.tokenIntrospection(config, tokens.access_token);
      expect(introspected).toEqual(
        expect.objectContaining({
          active: true,
          sub: user.id,
          client_id: c.client_id,
          scope: 'profile email',
        }),
      );
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).toEqual(expect.any(String));
      expect(refreshed.id_token).toBeUndefined();

      // With openid and no max_age, auth_time is in the ID token all the same.
      const v2 = client.randomPKCECodeVerifier();
      const withOpenid = client.buildAuthorizationUrl(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(v2),
        code_challenge_method: 'S256',
        state: 's2',
      });
      const second = await through(withOpenid, user.email);
      const oidcTokens = await client.authorizationCodeGrant(config, second.callback, {
        pkceCodeVerifier: v2,
        expectedState: 's2',
      });
      expect(oidcTokens.claims()).toEqual(
        expect.objectContaining({ sub: user.id, auth_time: expect.any(Number), email: user.email }),
      );
    });
  });

  describe('the organizations scope (docs/api-contract.md §14)', () => {
    it("adds the user's memberships {id, slug, role} to the ID token and UserInfo, only when asked for", async () => {
      const user = await newUser();
      const admin = stack.admin();
      expect(
        (
          await admin.post(`/v1/admin/projects/${op.project.id}/roles`, {
            key: 'billing',
            name: 'Billing',
            permissions: [],
          })
        ).status,
      ).toBe(201);
      const org = await admin.post('/v1/admin/organizations', {
        project_id: op.project.id,
        name: 'Acme',
      });
      expect(org.status).toBe(201);
      expect(
        (
          await admin.post(`/v1/admin/organizations/${org.body.id}/members`, {
            user_id: user.id,
            role: 'billing',
          })
        ).status,
      ).toBe(201);
      const c = await stack.client(op.project.id, {
        first_party: true,
        scopes: ['openid', 'email', 'organizations'],
      });
      const config = await discover(c);
      expect(config.serverMetadata().scopes_supported).toContain('organizations');
      const expected = [{ id: org.body.id, slug: org.body.slug, role: 'billing' }];

      const tokens = await codeFlow(config, user.email, { scope: 'openid email organizations' });
      expect(tokens.claims()).toEqual(
        expect.objectContaining({ sub: user.id, organizations: expected }),
      );
      const info = await client.fetchUserInfo(config, tokens.access_token, user.id);
      expect(info.organizations).toEqual(expected);

      const without = await codeFlow(config, user.email, { scope: 'openid email' });
      expect(without.claims()).not.toHaveProperty('organizations');
    });

    it("organization=<id> of a member sets the access tokens' org claim, re-read at every refresh; of a non-member nothing; a malformed one is invalid_request", async () => {
      const user = await newUser();
      const admin = stack.admin();
      const org = await admin.post('/v1/admin/organizations', {
        project_id: op.project.id,
        name: 'Initech',
      });
      const other = await admin.post('/v1/admin/organizations', {
        project_id: op.project.id,
        name: 'Umbrella',
      });
      expect(
        (
          await admin.post(`/v1/admin/organizations/${org.body.id}/members`, {
            user_id: user.id,
            role: 'member',
          })
        ).status,
      ).toBe(201);
      const c = await stack.client(op.project.id, { first_party: true });
      const config = await discover(c);
      const orgOf = async (accessToken: string) =>
        (await client.tokenIntrospection(config, accessToken)).org;

      const tokens = await codeFlow(config, user.email, { organization: org.body.id });
      expect(await orgOf(tokens.access_token)).toEqual({
        id: org.body.id,
        slug: org.body.slug,
        role: 'member',
        permissions: [],
      });
      // A role change reaches the next refresh; so does the end of the membership.
      expect(
        (
          await admin.post(`/v1/admin/projects/${op.project.id}/roles`, {
            key: 'auditor',
            name: 'Auditor',
            permissions: ['org:members:read'],
          })
        ).status,
      ).toBe(201);
      await admin.patch(`/v1/admin/organizations/${org.body.id}/members/${user.id}`, {
        role: 'auditor',
      });
      const promoted = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(await orgOf(promoted.access_token)).toEqual({
        id: org.body.id,
        slug: org.body.slug,
        role: 'auditor',
        permissions: ['org:members:read'],
      });
      expect(
        (await admin.delete(`/v1/admin/organizations/${org.body.id}/members/${user.id}`)).status,
      ).toBe(204);
      const removed = await client.refreshTokenGrant(config, promoted.refresh_token!);
      expect(await orgOf(removed.access_token)).toBeUndefined();

      // Not a member: the request goes through, the token names no organization.
      const outsider = await codeFlow(config, user.email, { organization: other.body.id });
      expect(await orgOf(outsider.access_token)).toBeUndefined();
      // Without the parameter: none either, whatever an earlier request named.
      const plain = await codeFlow(config, user.email);
      expect(await orgOf(plain.access_token)).toBeUndefined();

      const bad = client.buildAuthorizationUrl(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        state: 'st',
        organization: 'not-an-id',
      });
      const landed = await new Browser(stack.authUrl).follow(bad.href);
      const error = new URL(landed.url);
      expect(error.origin + error.pathname).toBe(RP_REDIRECT);
      expect(error.searchParams.get('error')).toBe('invalid_request');
    });

    it("adds the project's token_claims to the ID token and UserInfo with the profile scope, at once after the settings change", async () => {
      const user = await newUser();
      const admin = stack.admin();
      const c = await stack.client(op.project.id, {
        first_party: true,
        scopes: ['openid', 'email', 'profile'],
      });
      const config = await discover(c);
      // The provider is already built for the project; the new settings apply at the next request.
      expect(
        (await codeFlow(config, user.email, { scope: 'openid profile' })).claims(),
      ).not.toHaveProperty('plan');
      expect(
        (await admin.patch(`/v1/admin/users/${user.id}`, { metadata: { plan: 'pro', seats: 3 } }))
          .status,
      ).toBe(200);
      const url = `/v1/admin/projects/${op.project.id}`;
      expect(
        (
          await admin.patch(url, {
            settings: {
              token_claims: { plan: '{{user.metadata.plan}}', seats: '{{user.metadata.seats}}' },
            },
          })
        ).status,
      ).toBe(200);
      try {
        const tokens = await codeFlow(config, user.email, { scope: 'openid profile' });
        expect(tokens.claims()).toEqual(
          expect.objectContaining({ sub: user.id, plan: 'pro', seats: 3 }),
        );
        const info = await client.fetchUserInfo(config, tokens.access_token, user.id);
        expect(info).toEqual(expect.objectContaining({ plan: 'pro', seats: 3 }));
        const without = await codeFlow(config, user.email, { scope: 'openid email' });
        expect(without.claims()).not.toHaveProperty('plan');
      } finally {
        await admin.patch(url, { settings: { token_claims: null } });
      }
    });
  });

  /** A code + PKCE sign-in of `user` at client `c`; its tokens. */
  async function codeFlow(
    config: client.Configuration,
    email: string,
    params: Record<string, string> = {},
  ) {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: RP_REDIRECT,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
      ...params,
    });
    const { callback } = await through(url, email);
    return client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: 'st',
    });
  }

  describe('defaults relying parties expect', () => {
    it('ID tokens are RS256 by default (admin API and dynamic registration), verified with an RSA key of the JWKS; ES256 stays available per client', async () => {
      const user = await newUser();
      const byAdmin = await stack.client(op.project.id, { first_party: true });
      expect(byAdmin.id_token_signed_response_alg).toBe('RS256');
      const tokens = await codeFlow(await discover(byAdmin), user.email);
      const header = headerOf(tokens.id_token!);
      expect(header.alg).toBe('RS256');
      const { keys } = (await (await fetch(`${op.issuer}/jwks`)).json()) as {
        keys: { kid: string; kty: string; alg: string }[];
      };
      expect(keys.find((k) => k.kid === header.kid)).toEqual(
        expect.objectContaining({ kty: 'RSA', alg: 'RS256' }),
      );

      const es = await stack.client(op.project.id, {
        first_party: true,
        id_token_signed_response_alg: 'ES256',
      });
      const esTokens = await codeFlow(await discover(es), user.email);
      expect(headerOf(esTokens.id_token!).alg).toBe('ES256');
      expect(esTokens.claims()).toEqual(
        expect.objectContaining({ sub: user.id, aud: es.client_id }),
      );

      const open = await stack.oidcProject({ dynamic_registration: true });
      const registered = await fetch(`${open.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [RP_REDIRECT] }),
      });
      expect(registered.status).toBe(201);
      expect(
        ((await registered.json()) as Record<string, unknown>).id_token_signed_response_alg,
      ).toBe('RS256');
      // RFC 9126 §6's member is stored, not dropped.
      const pushing = await fetch(`${open.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: [RP_REDIRECT],
          require_pushed_authorization_requests: true,
        }),
      });
      const pushingBody = (await pushing.json()) as {
        client_id: string;
        require_pushed_authorization_requests: boolean;
      };
      expect([pushing.status, pushingBody.require_pushed_authorization_requests]).toEqual([
        201,
        true,
      ]);
      expect(
        await stack.cp.dataSource.query(
          `SELECT require_pushed_authorization_requests FROM oauth_clients WHERE client_id = $1`,
          [pushingBody.client_id],
        ),
      ).toEqual([{ require_pushed_authorization_requests: true }]);
      // A self-registered client cannot drop PKCE: that is an administrator's setting.
      const noPkce = await fetch(`${open.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [RP_REDIRECT], require_pkce: false }),
      });
      expect([noPkce.status, await noPkce.json()]).toEqual([
        400,
        {
          error: 'invalid_client_metadata',
          error_description:
            'require_pkce is set by an administrator: a registered client always uses PKCE',
        },
      ]);
    });

    it('a confidential client registered with require_pkce: false uses the nonce instead of PKCE; without either it is refused, and so is every client that keeps the default', async () => {
      const user = await newUser();
      const nonceClient = await stack.client(op.project.id, {
        first_party: true,
        require_pkce: false,
      });
      expect(nonceClient.require_pkce).toBe(false);
      const config = await discover(nonceClient);
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid email',
        nonce,
        state: 'st',
      });
      const { callback } = await through(url, user.email);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        expectedNonce: nonce,
        expectedState: 'st',
      });
      expect(tokens.claims()).toEqual(
        expect.objectContaining({ sub: user.id, nonce, aud: nonceClient.client_id }),
      );

      const refused = async (c: CreatedClient, params: Record<string, string>) => {
        const browser = new Browser(stack.authUrl);
        const answer = await browser.follow(
          client.buildAuthorizationUrl(await discover(c), {
            redirect_uri: RP_REDIRECT,
            state: 'st',
            ...params,
          }).href,
        );
        const at = new URL(answer.url);
        return [
          at.origin + at.pathname,
          at.searchParams.get('error'),
          at.searchParams.get('error_description'),
        ];
      };
      // No nonce (or no openid, where a nonce means nothing), no PKCE: refused.
      // The description names what to change.
      const pkceError = [
        RP_REDIRECT,
        'invalid_request',
        'Authorization Server policy requires PKCE to be used for this request: send code_challenge with code_challenge_method S256 (a confidential client may instead be set to require_pkce: false and send a nonce)',
      ];
      expect(await refused(nonceClient, { scope: 'openid email' })).toEqual(pkceError);
      expect(await refused(nonceClient, { scope: 'email', nonce: 'n-1' })).toEqual([
        RP_REDIRECT,
        'invalid_request',
        "openid scope must be requested when using the nonce parameter: ask for the openid scope, and list openid in the client's scopes setting",
      ]);
      // A client with the default needs PKCE even with a nonce.
      const strict = await stack.client(op.project.id, { first_party: true });
      expect(strict.require_pkce).toBe(true);
      expect(await refused(strict, { scope: 'openid email', nonce: 'n-2' })).toEqual(pkceError);
    });
  });

  describe('RP-initiated logout', () => {
    it("the confirmation page's form-action allows exactly the origins of the client's registered post-logout redirect URIs", async () => {
      const user = await newUser();
      const c = await stack.client(op.project.id, {
        first_party: true,
        post_logout_redirect_uris: [
          'http://127.0.0.1:5599/signed-out',
          'https://app.example.com/bye',
          'https://app.example.com/again',
        ],
      });
      const verifier = client.randomPKCECodeVerifier();
      const config = await discover(c);
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'st',
      });
      const { callback, browser } = await through(url, user.email);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: 'st',
      });
      const page = await browser.get(
        `${op.issuer}/end-session?${new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://app.example.com/bye' })}`,
      );
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h1>Sign out</h1>');
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:5599 https://app.example.com; frame-ancestors 'none'; base-uri 'none'",
      );
    });
  });

  describe('pushed authorization requests (RFC 9126)', () => {
    it('openid-client pushes the request, the browser goes to authorize with request_uri only, the code is exchanged; a request_uri works once; a client that requires PAR is refused a plain request', async () => {
      const user = await newUser();
      const c = await stack.client(op.project.id, {
        first_party: true,
        require_pushed_authorization_requests: true,
      });
      const config = await discover(c);
      expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(
        `${op.issuer}/request`,
      );
      const verifier = client.randomPKCECodeVerifier();
      const url = await client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'par',
      });
      expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
      const { callback } = await through(url, user.email);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: 'par',
      });
      expect(tokens.claims()).toEqual(expect.objectContaining({ sub: user.id, aud: c.client_id }));

      // The same request_uri again: refused at the authorization endpoint.
      const again = await new Browser(stack.authUrl).follow(url.href);
      const at = new URL(again.url);
      expect([at.searchParams.get('error'), at.searchParams.get('error_description')]).toEqual([
        'invalid_request_uri',
        'request_uri is invalid, expired, or was already used',
      ]);

      // A plain authorization request from that client: refused.
      const plain = await new Browser(stack.authUrl).follow(
        client.buildAuthorizationUrl(config, {
          redirect_uri: RP_REDIRECT,
          scope: 'openid',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: 'p',
        }).href,
      );
      const refused = new URL(plain.url);
      expect([
        refused.origin + refused.pathname,
        refused.searchParams.get('error'),
        refused.searchParams.get('error_description'),
      ]).toEqual([
        RP_REDIRECT,
        'invalid_request',
        "Pushed Authorization Request must be used: push the request to the pushed_authorization_request_endpoint first (the client's or the project's require_pushed_authorization_requests setting)",
      ]);

      // A push with a redirect URI the client did not register: refused at the endpoint.
      const pushed = await fetch(`${op.issuer}/request`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          client_id: c.client_id,
          response_type: 'code',
          redirect_uri: 'https://elsewhere.example/cb',
          scope: 'openid',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
        }),
      });
      expect([pushed.status, await pushed.json()]).toEqual([
        400,
        {
          error: 'invalid_request',
          error_description:
            "redirect_uri did not match any of the client's registered redirect_uris: add it to the client's redirect_uris setting (admin API or console)",
        },
      ]);
    });

    it('a project that requires PAR says so in discovery and refuses every plain request', async () => {
      const strict = await stack.oidcProject({ require_pushed_authorization_requests: true });
      const doc = (await (
        await fetch(`${strict.issuer}/.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      expect(doc.require_pushed_authorization_requests).toBe(true);
      const c = await stack.client(strict.project.id, { first_party: true });
      const config = await client.discovery(
        new URL(strict.issuer),
        c.client_id,
        c.client_secret,
        undefined,
        { execute: [client.allowInsecureRequests] },
      );
      const plain = await new Browser(stack.authUrl).follow(
        client.buildAuthorizationUrl(config, {
          redirect_uri: RP_REDIRECT,
          scope: 'openid',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
          state: 'p',
        }).href,
      );
      expect(new URL(plain.url).searchParams.get('error_description')).toMatch(
        /^Pushed Authorization Request must be used: /,
      );
      const url = await client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: RP_REDIRECT,
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
        state: 'p',
      });
      const atLogin = await new Browser(stack.authUrl).follow(url.href);
      expect(new URL(atLogin.url).searchParams.get('interaction')).toEqual(expect.any(String));
    });
  });

  describe('DPoP (RFC 9449)', () => {
    it.each(['ES256', 'RS256'])(
      'a client with a DPoP key (%s) gets DPoP-bound access and refresh tokens: UserInfo takes the token with a proof, never as a Bearer token',
      async (alg) => {
        const user = await newUser();
        const c = await stack.client(op.project.id, { first_party: true });
        const config = await discover(c);
        const keyPair = await client.randomDPoPKeyPair(alg);
        const DPoP = client.getDPoPHandle(config, keyPair);
        const verifier = client.randomPKCECodeVerifier();
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: RP_REDIRECT,
          scope: 'openid email',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: 'd',
        });
        const { callback } = await through(url, user.email);
        const tokens = await client.authorizationCodeGrant(
          config,
          callback,
          { pkceCodeVerifier: verifier, expectedState: 'd' },
          undefined,
          { DPoP },
        );
        expect(tokens.token_type).toBe('dpop');
        expect(await client.fetchUserInfo(config, tokens.access_token, user.id, { DPoP })).toEqual(
          expect.objectContaining({ sub: user.id, email: user.email }),
        );
        const introspected = await client.tokenIntrospection(config, tokens.access_token);
        expect(introspected).toEqual(
          expect.objectContaining({
            active: true,
            token_type: 'DPoP',
            cnf: { jkt: expect.any(String) },
          }),
        );
        // Without the proof the token is refused.
        const bearer = await fetch(`${op.issuer}/userinfo`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
        expect(bearer.status).toBe(401);
        // The refresh token is bound to the key too (a public client's would be; a confidential one refreshes with a proof).
        const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, {
          DPoP,
        });
        expect(refreshed.token_type).toBe('dpop');
      },
    );
  });

  describe('discovery says only what is there', () => {
    it('lists exactly these members; every endpoint URL in it is served', async () => {
      const open = await stack.oidcProject({ dynamic_registration: true });
      const doc = (await (
        await fetch(`${open.issuer}/.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      const i = open.issuer;
      expect(doc).toEqual({
        issuer: i,
        // Endpoints, each requested below.
        authorization_endpoint: `${i}/authorize`,
        token_endpoint: `${i}/token`,
        userinfo_endpoint: `${i}/userinfo`,
        jwks_uri: `${i}/jwks`,
        registration_endpoint: `${i}/register`,
        revocation_endpoint: `${i}/revoke`,
        introspection_endpoint: `${i}/introspect`,
        end_session_endpoint: `${i}/end-session`,
        pushed_authorization_request_endpoint: `${i}/request`,
        // Features, each exercised here or in oidc-provider.e2e-spec / oidc-trust.e2e-spec / oidc-relying-parties.e2e-spec.
        scopes_supported: ['openid', 'offline_access', 'profile', 'email', 'organizations'],
        claims_supported: [
          'sub',
          'acr',
          'amr',
          'auth_time',
          'preferred_username',
          'email',
          'email_verified',
          'organizations',
          'sid',
          'iss',
        ],
        claim_types_supported: ['normal'],
        response_types_supported: ['code'],
        response_modes_supported: ['form_post', 'fragment', 'query'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        subject_types_supported: ['public'],
        acr_values_supported: ['urn:gatehouse:loa:1', 'urn:gatehouse:loa:2'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: [
          'client_secret_basic',
          'client_secret_post',
          'none',
        ],
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
        authorization_response_iss_parameter_supported: true,
        claims_parameter_supported: false,
        request_uri_parameter_supported: false,
        dpop_signing_alg_values_supported: ['ES256', 'RS256'],
      });
      expect((await fetch(String(doc.jwks_uri))).status).toBe(200);
      // The authorization endpoint, in each response mode discovery lists (an error answers in the mode asked for).
      const c = await stack.client(open.project.id, { first_party: true });
      const modes: Record<string, string> = {};
      for (const mode of doc.response_modes_supported as string[]) {
        const res = await fetch(
          `${String(doc.authorization_endpoint)}?${new URLSearchParams({ client_id: c.client_id, redirect_uri: RP_REDIRECT, response_type: 'code', scope: 'openid', state: 's', response_mode: mode })}`,
          { redirect: 'manual' },
        );
        const location = res.headers.get('location');
        modes[mode] = location
          ? new URL(location).href.replace(RP_REDIRECT, 'RP')
          : (/<form method="post" action="([^"]+)"[\s\S]*name="error" value="([^"]+)"/
              .exec(await res.text())
              ?.slice(1)
              .join(' ') ?? `${res.status}`);
      }
      expect(modes).toEqual({
        query: expect.stringMatching(/^RP\?error=invalid_request&.*state=s/),
        fragment: expect.stringMatching(/^RP#error=invalid_request&.*state=s/),
        form_post: `${RP_REDIRECT} invalid_request`,
      });
      const post = (url: unknown) =>
        fetch(String(url), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'client_id=nobody&token=x',
        });
      for (const endpoint of [
        doc.token_endpoint,
        doc.revocation_endpoint,
        doc.introspection_endpoint,
        doc.pushed_authorization_request_endpoint,
      ]) {
        const res = await post(endpoint);
        expect({
          endpoint,
          status: res.status,
          error: ((await res.json()) as { error: string }).error,
        }).toEqual({
          endpoint,
          status: expect.any(Number),
          error: expect.stringMatching(/^invalid_(client|request)$/),
        });
      }
      expect((await fetch(String(doc.userinfo_endpoint))).status).toBe(401);
      expect((await fetch(String(doc.end_session_endpoint))).status).toBe(200);
      expect(
        (
          await fetch(String(doc.registration_endpoint), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(400);
    });
  });
});
