import { generateKeyPairSync } from 'node:crypto';
import type { Response } from 'supertest';
import {
  AuditEvent,
  MfaFactor,
  OAuthIdentity,
  OAuthTransaction,
  OneTimeToken,
  Organization,
  OrganizationDomain,
  OrganizationMember,
  OutboxEvent,
  PasswordCredential,
  Session,
  User,
} from '@gatehouse/entities';
import { ProjectsCache, sealOAuthSecret } from '@gatehouse/identity';
import {
  APP_REDIRECT,
  cookiesOf,
  createUser,
  expectProblem,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import {
  CookieJar,
  LocalProviders,
  loginAtProvider,
  startOidcIdp,
  type OidcIdp,
  type ProviderLogin,
  type ProviderReturn,
} from './support/oauth/test-providers';

type Provider = 'google' | 'github' | 'microsoft' | 'apple';

const GOOGLE = { clientId: 'google-client.apps.example', secret: 'google-client-secret' };
const MICROSOFT = {
  clientId: '00000000-1111-2222-3333-444444444444',
  secret: 'microsoft-client-secret',
};
const APPLE = {
  clientId: 'com.example.app.web',
  upstreamSecret: 'apple-upstream-secret',
  teamId: 'TEAM123456',
  keyId: 'KEY1234567',
};
const TIMEOUT_MS = 2000;

describe('social sign-in (OAuth 2.0 + PKCE) against real providers on loopback', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let idp: OidcIdp;
  const local = new LocalProviders();
  const appleKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer = (name: 'google' | 'microsoft' | 'apple') => idp.issuers[name];

  beforeAll(async () => {
    idp = await startOidcIdp([
      {
        name: 'google',
        clientId: GOOGLE.clientId,
        clientSecret: GOOGLE.secret,
        routes: {
          authorization: '/o/oauth2/v2/auth',
          token: '/token',
          userinfo: '/v1/userinfo',
          jwks: '/oauth2/v3/certs',
        },
        scopes: ['email', 'profile'],
      },
      {
        name: 'microsoft',
        clientId: MICROSOFT.clientId,
        clientSecret: MICROSOFT.secret,
        routes: {
          authorization: '/common/oauth2/v2.0/authorize',
          token: '/common/oauth2/v2.0/token',
          userinfo: '/oidc/userinfo',
          jwks: '/common/discovery/v2.0/keys',
        },
        scopes: ['email', 'profile'],
      },
      {
        name: 'apple',
        clientId: APPLE.clientId,
        clientSecret: APPLE.upstreamSecret,
        routes: { authorization: '/auth/authorize', token: '/auth/token', jwks: '/auth/keys' },
        scopes: ['email', 'name'],
      },
    ]);
    await local.start();
    local.apple = {
      upstreamTokenUrl: `${issuer('apple')}/auth/token`,
      upstreamSecret: APPLE.upstreamSecret,
      publicKey: appleKey.publicKey,
      teamId: APPLE.teamId,
      keyId: APPLE.keyId,
      clientId: APPLE.clientId,
      audience: issuer('apple'),
    };
    t = await startTestApp(buildAuthRuntime, {
      TRUST_PROXY: 'loopback',
      OAUTH_TIMEOUT_MS: String(TIMEOUT_MS),
    });
  });

  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    local.github.decline = false;
    local.github.tokenStatus = 200;
    local.githubAccount = {
      id: 583231,
      login: 'octocat',
      emails: [{ email: 'octo@example.com', primary: true, verified: true }],
    };
    await configureProviders();
  });

  afterAll(async () => {
    await t.close();
    idp.stop();
    await local.stop();
  });

  // ------------------------------------------------------------------ helpers

  const seal = (provider: Provider, field: 'client_secret' | 'private_key', value: string) =>
    sealOAuthSecret(t.config, tenant.project.id, provider, field, value);

  function providerSettings(): Record<Provider, Record<string, unknown>> {
    return {
      google: {
        enabled: true,
        client_id: GOOGLE.clientId,
        client_secret_encrypted: seal('google', 'client_secret', GOOGLE.secret),
        issuer: issuer('google'),
        authorization_url: `${issuer('google')}/o/oauth2/v2/auth`,
        token_url: `${issuer('google')}/token`,
        userinfo_url: `${issuer('google')}/v1/userinfo`,
      },
      microsoft: {
        enabled: true,
        client_id: MICROSOFT.clientId,
        client_secret_encrypted: seal('microsoft', 'client_secret', MICROSOFT.secret),
        issuer: issuer('microsoft'),
        authorization_url: `${issuer('microsoft')}/common/oauth2/v2.0/authorize`,
        token_url: `${issuer('microsoft')}/common/oauth2/v2.0/token`,
      },
      github: {
        enabled: true,
        client_id: local.github.clientId,
        client_secret_encrypted: seal('github', 'client_secret', local.github.clientSecret),
        authorization_url: `${local.url}/github/login/oauth/authorize`,
        token_url: `${local.url}/github/login/oauth/access_token`,
        userinfo_url: `${local.url}/github/user`,
      },
      apple: {
        enabled: true,
        client_id: APPLE.clientId,
        team_id: APPLE.teamId,
        key_id: APPLE.keyId,
        private_key_encrypted: seal(
          'apple',
          'private_key',
          appleKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        ),
        issuer: issuer('apple'),
        authorization_url: `${issuer('apple')}/auth/authorize`,
        token_url: `${local.url}/apple/auth/token`,
      },
    };
  }

  /** Writes `settings.oauth_providers` straight into the project (the admin PATCH is another feature). */
  async function configureProviders(
    change: (s: Record<Provider, Record<string, unknown>>) => void = () => undefined,
  ): Promise<void> {
    const settings = providerSettings();
    change(settings);
    await t.dataSource.query(
      `UPDATE projects SET settings = settings || jsonb_build_object('oauth_providers', $1::jsonb) WHERE id = $2`,
      [JSON.stringify(settings), tenant.project.id],
    );
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
  }

  const authorizeUrl = (provider: string, redirectUrl: string | null = APP_REDIRECT) =>
    `/v1/auth/oauth/${provider}/authorize?${new URLSearchParams({ project_key: tenant.projectKey, ...(redirectUrl !== null ? { redirect_url: redirectUrl } : {}) }).toString()}`;

  interface Started {
    res: Response;
    location: URL;
    state: string;
    binding: string;
  }

  async function startAt(provider: Provider, binding?: string): Promise<Started> {
    const req = t.http().get(authorizeUrl(provider));
    if (binding) req.set('Cookie', `service_oauth_binding=${binding}`);
    const res = await req;
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location);
    return {
      res,
      location,
      state: location.searchParams.get('state')!,
      binding: cookiesOf(res).service_oauth_binding?.value ?? binding!,
    };
  }

  function callback(ret: ProviderReturn, binding: string | null) {
    const req =
      ret.method === 'GET'
        ? t.http().get(`/v1/auth/oauth/callback${ret.search}`)
        : t.http().post('/v1/auth/oauth/callback').type('form').send(ret.fields);
    if (binding) req.set('Cookie', `service_oauth_binding=${binding}`);
    return req;
  }

  async function signInWith(provider: Provider, login: ProviderLogin): Promise<Response> {
    const started = await startAt(provider);
    const ret = await loginAtProvider(started.location.toString(), login);
    return callback(ret, started.binding);
  }

  /** The redirect target of a 302, with its query split off. */
  function redirectOf(res: Response): { target: string; query: Record<string, string> } {
    expect(res.status).toBe(302);
    const u = new URL(res.headers.location);
    const query = Object.fromEntries(u.searchParams.entries());
    u.search = '';
    return { target: u.toString(), query };
  }

  function expectNavigationHeaders(res: Response): void {
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  }

  function expectNoSession(res: Response): void {
    const cookies = cookiesOf(res);
    expect(cookies.service_session).toBeUndefined();
    expect(cookies.service_refresh_token).toBeUndefined();
  }

  const count = async (sql: string, params: unknown[] = []) =>
    (await t.dataSource.query<{ n: number }[]>(sql, params))[0].n;
  /** The audit actions of a user, sorted (events of one transaction share their timestamp). */
  const actionsOf = async (userId: string) =>
    (await t.dataSource.getRepository(AuditEvent).find({ where: { actorId: userId } }))
      .map((e) => e.action)
      .sort();

  async function expectSignedIn(res: Response, email: string): Promise<User> {
    expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: {} });
    expectNavigationHeaders(res);
    const cookies = cookiesOf(res);
    expect(cookies.service_session.attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']),
    );
    expect(cookies.service_refresh_token.attributes).toEqual(
      expect.arrayContaining(['Path=/v1/auth', 'HttpOnly', 'Secure', 'SameSite=Strict']),
    );
    const me = await t
      .http()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Cookie', `service_session=${cookies.service_session.value}`);
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual({
      id: expect.any(String),
      email,
      is_admin: false,
      mfa_factors: [],
    });
    const user = await t.dataSource
      .getRepository(User)
      .findOneByOrFail({ id: me.body.user.id as string });
    const [session] = await t.dataSource
      .getRepository(Session)
      .find({ where: { userId: user.id }, order: { createdAt: 'DESC' } });
    expect(session.authMethod).toBe('oauth');
    return user;
  }

  // ------------------------------------------------------------------ authorize

  describe('authorize', () => {
    it('stores state, S256 PKCE verifier and nonce server-side, binds them to the browser and 302s to the provider', async () => {
      const { res, location, state, binding } = await startAt('google');
      expectNavigationHeaders(res);
      expect(`${location.origin}${location.pathname}`).toBe(`${issuer('google')}/o/oauth2/v2/auth`);
      const q = Object.fromEntries(location.searchParams.entries());
      expect(q).toEqual({
        response_type: 'code',
        client_id: GOOGLE.clientId,
        redirect_uri: 'http://auth.test/v1/auth/oauth/callback',
        scope: 'openid email profile',
        state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
      });
      const cookie = cookiesOf(res).service_oauth_binding;
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie.attributes).toEqual(
        expect.arrayContaining([
          'Path=/v1/auth/oauth',
          'HttpOnly',
          'Secure',
          'SameSite=None',
          'Max-Age=600',
        ]),
      );

      const [tx] = await t.dataSource.getRepository(OAuthTransaction).find();
      expect(tx).toMatchObject({
        projectId: tenant.project.id,
        tenantId: tenant.tenantId,
        provider: 'google',
        redirectUrl: APP_REDIRECT,
        nonce: q.nonce,
        consumedAt: null,
      });
      expect(tx.stateHash).not.toBe(state);
      expect(tx.stateHash).toMatch(/^[0-9a-f]{64}$/);
      expect(tx.browserBindingHash).not.toBe(binding);
      expect(tx.codeVerifierEncrypted).toMatch(/^v1\./);
      expect(tx.expiresAt.getTime() - tx.createdAt.getTime()).toBeGreaterThan(9 * 60_000);
      expect(tx.expiresAt.getTime() - tx.createdAt.getTime()).toBeLessThanOrEqual(
        10 * 60_000 + 5_000,
      );

      // A second authorize from the same browser keeps its binding, so parallel tabs both work.
      const second = await startAt('github', binding);
      expect(second.binding).toBe(binding);
      expect(`${second.location.origin}${second.location.pathname}`).toBe(
        `${local.url}/github/login/oauth/authorize`,
      );
      expect(second.location.searchParams.get('scope')).toBe('read:user,user:email');
      expect(second.location.searchParams.get('code_challenge_method')).toBe('S256');
      expect(second.location.searchParams.has('nonce')).toBe(false);
    });

    it('asks Apple for form_post and sends Microsoft to its endpoints', async () => {
      const apple = await startAt('apple');
      expect(`${apple.location.origin}${apple.location.pathname}`).toBe(
        `${issuer('apple')}/auth/authorize`,
      );
      expect(apple.location.searchParams.get('response_mode')).toBe('form_post');
      expect(apple.location.searchParams.get('scope')).toBe('openid name email');
      const microsoft = await startAt('microsoft');
      expect(`${microsoft.location.origin}${microsoft.location.pathname}`).toBe(
        `${issuer('microsoft')}/common/oauth2/v2.0/authorize`,
      );
      expect(microsoft.location.searchParams.get('client_id')).toBe(MICROSOFT.clientId);
    });

    it('refuses an unknown, disabled or unconfigured provider with 400 validation-error', async () => {
      await configureProviders((s) => {
        s.microsoft.enabled = false;
        delete s.github.client_secret_encrypted;
        s.apple.private_key_encrypted = 'v1.garbage.garbage.garbage';
      });
      for (const provider of [
        'facebook',
        'GOOGLE',
        'microsoft',
        'github',
        'apple',
        'callback',
        '__proto__',
      ]) {
        const res = await t.http().get(authorizeUrl(provider));
        const body = expectProblem(
          res,
          400,
          'validation-error',
          `/v1/auth/oauth/${provider}/authorize`,
        );
        expect({ provider, errors: body.errors }).toEqual({
          provider,
          errors: { provider: [expect.any(String)] },
        });
        expect(res.headers.location).toBeUndefined();
      }
      await t.dataSource.query(
        `UPDATE projects SET settings = settings - 'oauth_providers' WHERE id = $1`,
        [tenant.project.id],
      );
      await t.app
        .get(ProjectsCache)
        .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
      expect(
        expectProblem(await t.http().get(authorizeUrl('google')), 400, 'validation-error').errors,
      ).toEqual({ provider: [expect.any(String)] });
      expect(await count('SELECT count(*)::int AS n FROM oauth_transactions')).toBe(0);
    });

    it('refuses the open-redirect corpus on redirect_url with 400 and no redirect', async () => {
      const corpus = [
        '//evil.com',
        '//evil.com/callback',
        'https://evil.com/callback',
        'https://app.example.com.evil.com/callback',
        'https://app.example.com@evil.com/callback',
        'https://evil.com\\@app.example.com/callback',
        'https://evil.com#@app.example.com/callback',
        'javascript:alert(document.cookie)',
        'data:text/html,<script>alert(1)</script>',
        'https://app.example.com:8443/callback',
        'http://app.example.com/callback',
        'https://app.example.com/callback/',
        'https://app.example.com/callback/evil',
        'https://app.example.com/callbackx',
        'https://app.example.com/other',
        'https://app.example.com/',
        'https://app.example.com/callback?next=https://evil.com',
        'https://app.example.com/callback#evil',
        '/callback',
        'app.example.com/callback',
        `https://app.example.com/callback${'a'.repeat(3000)}`,
      ];
      for (const redirectUrl of corpus) {
        const res = await t.http().get(authorizeUrl('google', redirectUrl));
        const body = expectProblem(res, 400, 'validation-error', '/v1/auth/oauth/google/authorize');
        expect({ redirectUrl, errors: body.errors }).toEqual({
          redirectUrl,
          errors: { redirect_url: [expect.any(String)] },
        });
        expect(res.headers.location).toBeUndefined();
        expect(cookiesOf(res).service_oauth_binding).toBeUndefined();
      }
      const missing = await t.http().get(authorizeUrl('google', null));
      expect(expectProblem(missing, 400, 'validation-error').errors).toEqual({
        redirect_url: ['is required'],
      });
      const twice = await t
        .http()
        .get(`${authorizeUrl('google')}&redirect_url=${encodeURIComponent('https://evil.com/')}`);
      expect(expectProblem(twice, 400, 'validation-error').errors).toEqual({
        redirect_url: [expect.any(String)],
      });
      const both = await t.http().get(authorizeUrl('nope', 'https://evil.com/'));
      expect(
        Object.keys(expectProblem(both, 400, 'validation-error').errors as object).sort(),
      ).toEqual(['provider', 'redirect_url']);
      expect(await count('SELECT count(*)::int AS n FROM oauth_transactions')).toBe(0);
    });

    it('needs the project key (query or header)', async () => {
      expectProblem(
        await t
          .http()
          .get(`/v1/auth/oauth/google/authorize?redirect_url=${encodeURIComponent(APP_REDIRECT)}`),
        401,
        'unauthenticated',
      );
      expectProblem(
        await t
          .http()
          .get(
            `/v1/auth/oauth/google/authorize?project_key=pk_unknownunknownunknown&redirect_url=${encodeURIComponent(APP_REDIRECT)}`,
          ),
        401,
        'unauthenticated',
      );
      const viaHeader = await t
        .http()
        .get(`/v1/auth/oauth/google/authorize?redirect_url=${encodeURIComponent(APP_REDIRECT)}`)
        .set('X-Service-Project-Key', tenant.projectKey);
      expect(viaHeader.status).toBe(302);
    });
  });

  // ------------------------------------------------------------------ full sign-in per provider

  describe('full sign-in', () => {
    it('Google: creates the user from the verified ID token, links the identity, sets cookies and redirects; the next sign-in finds the same user', async () => {
      const res = await signInWith('google', {
        account: 'google-sub-1',
        claims: { email: 'Ada@Example.com', email_verified: true },
      });
      const user = await expectSignedIn(res, 'Ada@Example.com');
      expect(user.emailVerified).toBe(true);
      expect(
        await t.dataSource.getRepository(PasswordCredential).countBy({ userId: user.id }),
      ).toBe(0);
      const identity = await t.dataSource
        .getRepository(OAuthIdentity)
        .findOneByOrFail({ userId: user.id });
      expect(identity).toMatchObject({
        projectId: tenant.project.id,
        tenantId: tenant.tenantId,
        provider: 'google',
        subject: 'google-sub-1',
        email: 'Ada@Example.com',
      });
      expect(await actionsOf(user.id)).toEqual(['oauth.linked', 'session.created', 'user.created']);
      const outbox = async (type: string) =>
        (
          await t.dataSource
            .getRepository(OutboxEvent)
            .find({ where: { type, projectId: tenant.project.id } })
        ).map((e) => e.payload);
      expect(await outbox('user.created')).toEqual([
        {
          user: {
            id: user.id,
            email: 'Ada@Example.com',
            username: null,
            project_id: tenant.project.id,
          },
          method: 'oauth',
          provider: 'google',
        },
      ]);
      expect(await outbox('oauth.linked')).toEqual([
        {
          user: { id: user.id, email: 'Ada@Example.com' },
          identity: {
            id: identity.id,
            provider: 'google',
            subject: 'google-sub-1',
            email: 'Ada@Example.com',
            email_verified: true,
          },
          new_user: true,
        },
      ]);
      const tx = await t.dataSource
        .getRepository(OAuthTransaction)
        .findOneByOrFail({ provider: 'google' });
      expect(tx.consumedAt).not.toBeNull();

      const again = await signInWith('google', {
        account: 'google-sub-1',
        claims: { email: 'ada@example.com', email_verified: true },
      });
      expect((await expectSignedIn(again, 'Ada@Example.com')).id).toBe(user.id);
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(1);
      expect(await count('SELECT count(*)::int AS n FROM oauth_identities')).toBe(1);
      expect(await actionsOf(user.id)).toEqual([
        'oauth.linked',
        'session.created',
        'session.created',
        'user.created',
      ]);
    });

    it('GitHub: takes the primary verified email from the emails API and the numeric id as subject', async () => {
      local.githubAccount = {
        id: 9001,
        login: 'hubber',
        emails: [
          { email: 'secondary@example.com', primary: false, verified: true },
          { email: 'hub@example.com', primary: true, verified: true },
        ],
      };
      const started = await startAt('github');
      const ret = await loginAtProvider(started.location.toString(), { account: 'unused' });
      const res = await callback(ret, started.binding);
      const user = await expectSignedIn(res, 'hub@example.com');
      expect(user.emailVerified).toBe(true);
      expect(
        await t.dataSource.getRepository(OAuthIdentity).findOneByOrFail({ userId: user.id }),
      ).toMatchObject({ provider: 'github', subject: '9001', email: 'hub@example.com' });
      expect(await actionsOf(user.id)).toEqual(['oauth.linked', 'session.created', 'user.created']);
    });

    it('Microsoft: signs in through its OpenID Connect endpoints (keys found through discovery)', async () => {
      const res = await signInWith('microsoft', {
        account: 'ms-oid-1',
        claims: { email: 'grace@contoso.example', email_verified: true },
      });
      const user = await expectSignedIn(res, 'grace@contoso.example');
      expect(
        await t.dataSource.getRepository(OAuthIdentity).findOneByOrFail({ userId: user.id }),
      ).toMatchObject({ provider: 'microsoft', subject: 'ms-oid-1' });
    });

    it("Apple: form_post callback, ES256 client secret JWT, string 'true' email_verified", async () => {
      const started = await startAt('apple');
      const ret = await loginAtProvider(started.location.toString(), {
        account: '001234.apple.user',
        claims: { email: 'relay@privaterelay.appleid.com', email_verified: 'true' },
      });
      expect(ret.method).toBe('POST');
      const res = await callback(ret, started.binding);
      const user = await expectSignedIn(res, 'relay@privaterelay.appleid.com');
      expect(user.emailVerified).toBe(true);
      expect(
        await t.dataSource.getRepository(OAuthIdentity).findOneByOrFail({ userId: user.id }),
      ).toMatchObject({ provider: 'apple', subject: '001234.apple.user' });
      const seen = local.appleSecretsSeen.at(-1)!;
      expect(seen.header).toMatchObject({ alg: 'ES256', kid: APPLE.keyId });
      expect(seen.claims).toEqual({
        iss: APPLE.teamId,
        sub: APPLE.clientId,
        aud: issuer('apple'),
        iat: expect.any(Number),
        exp: expect.any(Number),
      });
      expect((seen.claims.exp as number) - (seen.claims.iat as number)).toBeLessThanOrEqual(
        15_777_000,
      );
    });

    it('creates a user whose email the provider does not verify, with email_verified false', async () => {
      const res = await signInWith('microsoft', {
        account: 'ms-unverified',
        claims: { email: 'new@contoso.example' },
      });
      const user = await expectSignedIn(res, 'new@contoso.example');
      expect(user.emailVerified).toBe(false);
    });

    it('joins at sign-up a user whose provider verified an email at an auto_join domain of the project (§14); an unverified email joins nothing', async () => {
      const org = await t.dataSource.getRepository(Organization).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        name: 'Contoso',
        slug: 'contoso',
        metadata: {},
      });
      await t.dataSource.getRepository(OrganizationDomain).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        organizationId: org.id,
        domain: 'contoso.example',
        status: 'verified',
        verificationValue: 'gatehouse-verification=x',
        enrollment: 'auto_join',
        defaultRole: 'member',
        verifiedAt: new Date(),
      });
      const joiner = await expectSignedIn(
        await signInWith('microsoft', {
          account: 'ms-joiner',
          claims: { email: 'joiner@Contoso.example', email_verified: true },
        }),
        'joiner@Contoso.example',
      );
      await expectSignedIn(
        await signInWith('microsoft', {
          account: 'ms-stranger',
          claims: { email: 'stranger@contoso.example' },
        }),
        'stranger@contoso.example',
      );
      expect(
        await t.dataSource.getRepository(OrganizationMember).findBy({ organizationId: org.id }),
      ).toEqual([expect.objectContaining({ userId: joiner.id, role: 'member' })]);
      expect(await actionsOf(joiner.id)).toEqual([
        'oauth.linked',
        'organization.member.added',
        'session.created',
        'user.created',
      ]);
    });

    it('gives a user with MFA the challenge: ?mfa_required=true&mfa_token=…, no session cookie', async () => {
      const user = await createUser(t.app, tenant.project, 'mfa@example.com');
      await t.dataSource.getRepository(OAuthIdentity).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: user.id,
        provider: 'google',
        subject: 'mfa-sub',
        email: 'mfa@example.com',
      });
      await t.dataSource.getRepository(MfaFactor).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: user.id,
        type: 'totp',
        status: 'enabled',
        secretEncrypted: 'x',
      });
      const res = await signInWith('google', {
        account: 'mfa-sub',
        claims: { email: 'mfa@example.com', email_verified: true },
      });
      const { target, query } = redirectOf(res);
      expect(target).toBe(APP_REDIRECT);
      expect(query).toEqual({
        mfa_required: 'true',
        mfa_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expectNoSession(res);
      expectNavigationHeaders(res);
      expect(
        await t.dataSource.getRepository(OneTimeToken).countBy({ userId: user.id, purpose: 'mfa' }),
      ).toBe(1);
      expect(await t.dataSource.getRepository(Session).countBy({ userId: user.id })).toBe(0);
    });
  });

  // ------------------------------------------------------------------ linking

  describe('linking by email', () => {
    it('links to an existing user when the provider asserts the email is verified; an unverified local account loses its unproven password and sessions', async () => {
      const squatter = await signUpUser(t, tenant.projectKey, 'owner@example.com');
      const res = await signInWith('google', {
        account: 'owner-sub',
        claims: { email: 'OWNER@example.com', email_verified: true },
      });
      const user = await expectSignedIn(res, 'owner@example.com');
      expect(user.id).toBe(squatter.id);
      expect(user.emailVerified).toBe(true);
      expect(
        await t.dataSource.getRepository(PasswordCredential).countBy({ userId: user.id }),
      ).toBe(0);
      const old = await t.dataSource
        .getRepository(Session)
        .findOneByOrFail({ id: squatter.sessionId });
      expect(old.revokedAt).not.toBeNull();
      const oldToken = await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${squatter.accessToken}`);
      expect(oldToken.body).toEqual({ user: null });
      expect(await actionsOf(user.id)).toEqual([
        'email.verified',
        'oauth.linked',
        'session.created',
        'session.created',
        'session.revoked',
        'user.created',
        'user.updated',
      ]);
      const updated = await t.dataSource
        .getRepository(OutboxEvent)
        .findOneByOrFail({ type: 'user.updated', projectId: tenant.project.id });
      expect(updated.payload).toEqual({
        user: { id: user.id, email: 'owner@example.com' },
        reason: 'account_claimed',
        proof: { method: 'oauth', provider: 'google' },
        changes: { email_verified: true },
        removed: {
          password: true,
          passkeys: 0,
          identities: [],
          mfa_factors: [],
          backup_codes: 0,
          sessions: 1,
        },
      });
    });

    it('links to a verified local account without touching its password', async () => {
      const existing = await createUser(t.app, tenant.project, 'verified@example.com');
      await t.dataSource.getRepository(User).update({ id: existing.id }, { emailVerified: true });
      const res = await signInWith('microsoft', {
        account: 'ms-verified',
        claims: { email: 'verified@example.com', email_verified: true },
      });
      expect((await expectSignedIn(res, 'verified@example.com')).id).toBe(existing.id);
      expect(
        await t.dataSource.getRepository(PasswordCredential).countBy({ userId: existing.id }),
      ).toBe(1);
      expect(await actionsOf(existing.id)).toEqual(['oauth.linked', 'session.created']);
    });

    it('does not link when the provider does not assert the email is verified (?error=account_exists)', async () => {
      const existing = await createUser(t.app, tenant.project, 'taken@example.com');
      for (const claims of [
        { email: 'taken@example.com', email_verified: false },
        { email: 'Taken@Example.com' },
        { email: 'taken@example.com', email_verified: 'false' },
      ]) {
        const res = await signInWith('google', {
          account: `attacker-${JSON.stringify(claims).length}`,
          claims,
        });
        expect(redirectOf(res)).toEqual({
          target: APP_REDIRECT,
          query: { error: 'account_exists' },
        });
        expectNoSession(res);
      }
      local.githubAccount = {
        id: 77,
        login: 'x',
        emails: [{ email: 'taken@example.com', primary: true, verified: false }],
      };
      const gh = await startAt('github');
      const ghRes = await callback(
        await loginAtProvider(gh.location.toString(), { account: 'x' }),
        gh.binding,
      );
      expect(redirectOf(ghRes)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'account_exists' },
      });

      expect(await count('SELECT count(*)::int AS n FROM oauth_identities')).toBe(0);
      expect(await count('SELECT count(*)::int AS n FROM sessions')).toBe(0);
      expect(
        await t.dataSource.getRepository(PasswordCredential).countBy({ userId: existing.id }),
      ).toBe(1);
      expect(
        await count(
          `SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.sign_in_failed' AND metadata->>'reason' = 'invalid_credentials' AND metadata->>'error' = 'account_exists'`,
        ),
      ).toBe(4);
    });

    it('refuses a disabled user (?error=account_disabled)', async () => {
      const user = await createUser(t.app, tenant.project, 'off@example.com');
      await t.dataSource
        .getRepository(User)
        .update({ id: user.id }, { status: 'disabled', emailVerified: true });
      const res = await signInWith('google', {
        account: 'off-sub',
        claims: { email: 'off@example.com', email_verified: true },
      });
      expect(redirectOf(res)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'account_disabled' },
      });
      expectNoSession(res);
      expect(await count('SELECT count(*)::int AS n FROM oauth_identities')).toBe(0);
      // docs/api-contract.md §13's reason word, with the callback's code beside it.
      expect(
        await count(
          `SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.sign_in_failed' AND metadata->>'reason' = 'disabled' AND metadata->>'error' = 'account_disabled'`,
        ),
      ).toBe(1);
    });
  });

  // ------------------------------------------------------------------ state and binding

  describe('state', () => {
    it('is single use: a replayed callback redirects with ?error=invalid_state and creates nothing', async () => {
      const started = await startAt('google');
      const ret = await loginAtProvider(started.location.toString(), {
        account: 'replay-sub',
        claims: { email: 'replay@example.com', email_verified: true },
      });
      await expectSignedIn(await callback(ret, started.binding), 'replay@example.com');
      const replay = await callback(ret, started.binding);
      expect(redirectOf(replay)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'invalid_state' },
      });
      expectNoSession(replay);
      expectNavigationHeaders(replay);
      expect(await count('SELECT count(*)::int AS n FROM sessions')).toBe(1);
    });

    it('answers a state we never issued with 400 invalid-token and no redirect', async () => {
      const states = [
        'A'.repeat(43),
        'short',
        '',
        'x'.repeat(5000),
        '../../etc',
        '\u0000'.repeat(43),
      ];
      for (const state of states) {
        const res = await t
          .http()
          .get('/v1/auth/oauth/callback')
          .query({ state, code: 'whatever' });
        expectProblem(res, 400, 'invalid-token', '/v1/auth/oauth/callback');
        expect(res.headers.location).toBeUndefined();
        expectNoSession(res);
      }
      expectProblem(await t.http().get('/v1/auth/oauth/callback'), 400, 'invalid-token');
      expectProblem(
        await t.http().get('/v1/auth/oauth/callback?state=a&state=b&code=c'),
        400,
        'invalid-token',
      );
      expectProblem(
        await t
          .http()
          .post('/v1/auth/oauth/callback')
          .type('form')
          .send({ state: 'B'.repeat(43), code: 'c' }),
        400,
        'invalid-token',
      );
      expectProblem(
        await t
          .http()
          .post('/v1/auth/oauth/callback')
          .send({ state: ['x'], code: { a: 1 } }),
        400,
        'invalid-token',
      );
    });

    it('is bound to the browser: a callback without (or with another) binding cookie gets ?error=invalid_state', async () => {
      const started = await startAt('google');
      const ret = await loginAtProvider(started.location.toString(), {
        account: 'bound-sub',
        claims: { email: 'bound@example.com', email_verified: true },
      });
      for (const binding of [null, 'C'.repeat(43), 'not-a-binding']) {
        const res = await callback(ret, binding);
        expect(redirectOf(res)).toEqual({
          target: APP_REDIRECT,
          query: { error: 'invalid_state' },
        });
        expectNoSession(res);
      }
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
    });

    it('expires after ten minutes', async () => {
      const started = await startAt('google');
      const ret = await loginAtProvider(started.location.toString(), {
        account: 'late-sub',
        claims: { email: 'late@example.com', email_verified: true },
      });
      t.clock.advance(10 * 60_000 + 1000);
      const res = await callback(ret, started.binding);
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'invalid_state' } });
      expectNoSession(res);
    });

    it('lets exactly one of many concurrent callbacks with the same state through', async () => {
      const started = await startAt('google');
      const ret = await loginAtProvider(started.location.toString(), {
        account: 'race-sub',
        claims: { email: 'race@example.com', email_verified: true },
      });
      const results = await Promise.all(
        Array.from({ length: 6 }, () => callback(ret, started.binding)),
      );
      const outcomes = results.map((r) => redirectOf(r).query.error ?? 'ok').sort();
      expect(outcomes).toEqual([
        'invalid_state',
        'invalid_state',
        'invalid_state',
        'invalid_state',
        'invalid_state',
        'ok',
      ]);
      expect(await count('SELECT count(*)::int AS n FROM sessions')).toBe(1);
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(1);
    });

    it('takes the provider from the stored state: a state from Google with a code from Microsoft fails with provider_error', async () => {
      const google = await startAt('google');
      const microsoft = await startAt('microsoft', google.binding);
      await loginAtProvider(google.location.toString(), {
        account: 'mix-sub',
        claims: { email: 'mix@example.com', email_verified: true },
      });
      const msRet = await loginAtProvider(microsoft.location.toString(), {
        account: 'mix-sub',
        claims: { email: 'mix@example.com', email_verified: true },
      });
      if (msRet.method !== 'GET') throw new Error('expected a GET callback');
      const code = msRet.params.get('code')!;
      const res = await t
        .http()
        .get('/v1/auth/oauth/callback')
        .query({ code, state: google.state })
        .set('Cookie', `service_oauth_binding=${google.binding}`);
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      expectNoSession(res);
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
    });

    it('rejects a code redeemed with another transaction’s PKCE verifier (provider_error)', async () => {
      const jar = new CookieJar();
      const first = await startAt('google');
      const second = await startAt('google', first.binding);
      const firstRet = await loginAtProvider(
        first.location.toString(),
        { account: 'pkce-sub', claims: { email: 'pkce@example.com', email_verified: true } },
        jar,
      );
      if (firstRet.method !== 'GET') throw new Error('expected a GET callback');
      // The first flow's code arrives with the second flow's state: the verifier does not match its challenge.
      const res = await t
        .http()
        .get('/v1/auth/oauth/callback')
        .query({ code: firstRet.params.get('code'), state: second.state })
        .set('Cookie', `service_oauth_binding=${first.binding}`);
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      expectNoSession(res);
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
      // The same code with its own transaction (its own verifier) still goes through: only the verifier differed.
      await expectSignedIn(await callback(firstRet, first.binding), 'pkce@example.com');
    });
  });

  // ------------------------------------------------------------------ provider failures

  describe('provider failures', () => {
    it('maps the user declining to ?error=access_denied', async () => {
      const res = await signInWith('google', { account: 'shy', decline: true });
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'access_denied' } });
      expectNoSession(res);
      local.github.decline = true;
      const gh = await startAt('github');
      const ghRes = await callback(
        await loginAtProvider(gh.location.toString(), { account: 'x' }),
        gh.binding,
      );
      expect(redirectOf(ghRes)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'access_denied' },
      });
      // Apple posts its own code when the user cancels.
      const apple = await startAt('apple');
      const cancelled = await t
        .http()
        .post('/v1/auth/oauth/callback')
        .type('form')
        .send({ state: apple.state, error: 'user_cancelled_authorize' })
        .set('Cookie', `service_oauth_binding=${apple.binding}`);
      expect(redirectOf(cancelled)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'access_denied' },
      });
      expectNoSession(cancelled);
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
    });

    it('maps a failing token endpoint to ?error=provider_error', async () => {
      local.github.tokenStatus = 500;
      const gh = await startAt('github');
      const res = await callback(
        await loginAtProvider(gh.location.toString(), { account: 'x' }),
        gh.binding,
      );
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      expectNoSession(res);

      await configureProviders((s) => (s.google.token_url = `${local.url}/fail/token`));
      const google = await signInWith('google', {
        account: 'g',
        claims: { email: 'g@example.com', email_verified: true },
      });
      expect(redirectOf(google)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'provider_error' },
      });
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
    });

    it('gives up on a token endpoint that never answers within OAUTH_TIMEOUT_MS (?error=provider_error)', async () => {
      await configureProviders((s) => (s.google.token_url = `${local.url}/hang/token`));
      const started = await startAt('google');
      const ret = await loginAtProvider(started.location.toString(), {
        account: 'slow',
        claims: { email: 'slow@example.com', email_verified: true },
      });
      const before = Date.now();
      const res = await callback(ret, started.binding);
      const took = Date.now() - before;
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      expectNoSession(res);
      expect(local.hangingRequests.length).toBeGreaterThan(0);
      expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
      expect(took).toBeLessThan(TIMEOUT_MS + 3000);
    });

    it('rejects an ID token whose signature does not verify against the provider keys (provider_error)', async () => {
      // Google's tokens checked against Microsoft's key set: same issuer settings, wrong keys.
      await configureProviders(
        (s) => (s.google.jwks_url = `${issuer('microsoft')}/common/discovery/v2.0/keys`),
      );
      const res = await signInWith('google', {
        account: 'forged',
        claims: { email: 'forged@example.com', email_verified: true },
      });
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      expectNoSession(res);
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
    });

    it('rejects an ID token from another issuer than the configured one (provider_error)', async () => {
      // Microsoft's real tokens are issued by its own issuer; we expect another one.
      await configureProviders((s) => {
        s.microsoft.issuer = issuer('google');
        s.microsoft.jwks_url = `${issuer('microsoft')}/common/discovery/v2.0/keys`;
      });
      const res = await signInWith('microsoft', {
        account: 'wrong-iss',
        claims: { email: 'iss@example.com', email_verified: true },
      });
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      expect(
        await count('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [
          tenant.project.id,
        ]),
      ).toBe(0);
    });

    it('answers authorize with 503 when an overridden issuer cannot be discovered, and stores nothing', async () => {
      await configureProviders((s) => {
        s.microsoft.issuer = 'http://127.0.0.1:9/tenant/v2.0';
        delete s.microsoft.authorization_url;
        delete s.microsoft.token_url;
      });
      const res = await t.http().get(authorizeUrl('microsoft'));
      expectProblem(res, 503, 'service-unavailable', '/v1/auth/oauth/microsoft/authorize');
      expect(res.headers.location).toBeUndefined();
      expect(await count('SELECT count(*)::int AS n FROM oauth_transactions')).toBe(0);
    });

    it('treats a provider error response, or a callback without a code, as provider_error', async () => {
      const started = await startAt('google');
      const res = await t
        .http()
        .get('/v1/auth/oauth/callback')
        .query({ state: started.state, error: 'server_error' })
        .set('Cookie', `service_oauth_binding=${started.binding}`);
      expect(redirectOf(res)).toEqual({ target: APP_REDIRECT, query: { error: 'provider_error' } });
      const other = await startAt('google', started.binding);
      const noCode = await t
        .http()
        .get('/v1/auth/oauth/callback')
        .query({ state: other.state })
        .set('Cookie', `service_oauth_binding=${started.binding}`);
      expect(redirectOf(noCode)).toEqual({
        target: APP_REDIRECT,
        query: { error: 'provider_error' },
      });
    });
  });
});
