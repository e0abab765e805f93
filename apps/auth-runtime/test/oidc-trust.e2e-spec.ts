import { execFileSync } from 'node:child_process';
import * as jose from 'jose';
import * as client from 'openid-client';
import {
  Browser,
  OidcStack,
  PASSWORD,
  RP_REDIRECT,
  type CreatedClient,
  type OidcProject,
} from './support/oidc-stack';

const LOA_1 = 'urn:gatehouse:loa:1';
const LOA_2 = 'urn:gatehouse:loa:2';
const EVIL_REDIRECT = 'https://evil.example/cb';
const EVIL_LOGOUT = 'https://evil.example/bye';
/** An attacker-chosen client name: markup, quotes and an ampersand. */
const EVIL_NAME = '<img src=x onerror=alert(1)> "Your Bank" & Co';

/** A TOTP code of `secret` for the 30-second step `step`, computed by oathtool (RFC 6238), independently of our code. */
function totp(secret: string, step: number): string {
  return execFileSync('oathtool', ['--totp', '-b', secret, '-N', `@${step * 30}`])
    .toString()
    .trim();
}
const currentStep = () => Math.floor(Date.now() / 30_000);

/** The HTML-escaped text as the page writes it (&, <, >, ", ' as numeric references). */
const escaped = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const unescaped = (value: string) =>
  value.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

/**
 * Assurance and trust at each project's OpenID Connect provider (docs/oidc.md): a relying party's
 * demand for a second factor (`acr_values`, `default_acr_values`) is never skipped by a weaker
 * provider session, and the shared sign-in origin is no open redirector for self-registered
 * clients (RFC 9700 §4.11.2). The compiled auth runtime as a real process, browsers as cookie jars.
 */
describe('OIDC provider: requested assurance and self-registered clients', () => {
  const stack = new OidcStack();
  let op: OidcProject;
  let userCount = 0;

  beforeAll(async () => {
    await stack.start();
    op = await stack.oidcProject({ dynamic_registration: true });
  }, 60_000);

  afterAll(() => stack.stop());

  const newUser = async (project = op) => {
    userCount += 1;
    const email = `trust${userCount}@example.com`;
    const user = await stack.user(project.project, email);
    return { id: user.id, email };
  };

  const discover = (c: CreatedClient, project = op) =>
    client.discovery(new URL(project.issuer), c.client_id, c.client_secret, undefined, {
      execute: [client.allowInsecureRequests],
    });

  async function authorizationUrl(
    config: client.Configuration,
    params: Record<string, string> = {},
  ) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: RP_REDIRECT,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...params,
    });
    return { url, verifier, state };
  }

  const authed = (path: string, token: string, body: object) =>
    fetch(`${stack.authUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-project-key': op.projectKey,
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });

  /** Enrols TOTP for the session's user (the code of step `step`); returns the secret. */
  async function enrolTotp(token: string, step: number): Promise<string> {
    const setup = await authed('/v1/auth/mfa/totp/setup', token, {});
    expect(setup.status).toBe(200);
    const secret = ((await setup.json()) as { secret: string }).secret;
    const verified = await authed('/v1/auth/mfa/totp/verify', token, { code: totp(secret, step) });
    expect(verified.status).toBe(200);
    return secret;
  }

  /** Signs in with the password and then the TOTP code of `step` (the MFA challenge). */
  async function signInWithTotp(
    email: string,
    secret: string,
    step: number,
  ): Promise<{ accessToken: string; sessionId: string }> {
    const headers = { 'content-type': 'application/json', 'x-service-project-key': op.projectKey };
    const first = await fetch(`${stack.authUrl}/v1/auth/sign-in`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ identifier: email, password: PASSWORD }),
    });
    expect(first.status).toBe(200);
    const challenge = (await first.json()) as { mfa_required?: boolean; mfa_token?: string };
    expect(challenge.mfa_required).toBe(true);
    const res = await fetch(`${stack.authUrl}/v1/auth/mfa/verify`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        mfa_token: challenge.mfa_token,
        factor: 'totp',
        code: totp(secret, step),
      }),
    });
    expect(res.status).toBe(200);
    const session = ((await res.json()) as { session: { id: string; access_token: string } })
      .session;
    return { accessToken: session.access_token, sessionId: session.id };
  }

  /** The browser's first sign-in to the provider, with the password only: a provider session of loa:1. */
  async function passwordOnlyProviderSession(config: client.Configuration, email: string) {
    const browser = new Browser(stack.authUrl);
    const first = await authorizationUrl(config);
    const uid = new URL((await browser.follow(first.url.href)).url).searchParams.get(
      'interaction',
    )!;
    const session = await stack.signIn(op.projectKey, email);
    const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
      token: session.accessToken,
    });
    expect(done.status).toBe(200);
    const callback = new URL((await browser.follow(String(done.body.redirect_to))).url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
    });
    expect(tokens.claims()).toMatchObject({ acr: LOA_1, amr: ['pwd'], sid: session.sessionId });
    return { browser, session };
  }

  const authMethod = async (sessionId: string) =>
    (
      await stack.cp.dataSource.query(`SELECT auth_method FROM sessions WHERE id = $1`, [sessionId])
    )[0].auth_method as string;

  describe('acr_values and default_acr_values (a second factor is never skipped)', () => {
    it('a password-only provider session asked for loa:2 goes through the interaction; a TOTP step-up completes it with an ID token of loa:2', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { browser, session } = await passwordOnlyProviderSession(config, user.email);
      const step = currentStep();
      const secret = await enrolTotp(session.accessToken, step);

      // Silent authentication cannot meet it: login_required at the client, no code.
      const silent = await authorizationUrl(config, { acr_values: LOA_2, prompt: 'none' });
      const silentBack = new URL((await browser.follow(silent.url.href)).url);
      expect(silentBack.origin + silentBack.pathname).toBe(RP_REDIRECT);
      expect(silentBack.searchParams.get('error')).toBe('login_required');
      expect(silentBack.searchParams.get('code')).toBeNull();

      // Not a code straight away: the sign-in page with a login interaction.
      const strong = await authorizationUrl(config, { acr_values: LOA_2 });
      const atLogin = new URL((await browser.follow(strong.url.href)).url);
      expect(atLogin.origin + atLogin.pathname).toBe(`${op.issuer}/pages/sign-in`);
      expect(atLogin.searchParams.get('code')).toBeNull();
      const uid = atLogin.searchParams.get('interaction')!;
      expect((await stack.interaction(op.projectKey, 'GET', uid)).body).toMatchObject({
        uid,
        prompt: 'login',
        client: { client_id: rp.client_id },
      });

      // The password-only session cannot complete it (the user has a second factor: step up).
      const refused = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      expect(refused.status).toBe(403);
      expect(String(refused.body.type)).toMatch(/\/reauthentication-required$/);
      expect(String(refused.body.detail)).toContain(LOA_2);

      // Step-up with the TOTP code: the same session now counts as signed in with a second factor.
      const stepUp = await authed('/v1/auth/reauthenticate', session.accessToken, {
        factor: 'totp',
        code: totp(secret, step + 1),
      });
      expect(stepUp.status).toBe(200);
      const renewed = ((await stepUp.json()) as { access_token: string }).access_token;
      expect(await authMethod(session.sessionId)).toBe('mfa');
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: renewed,
      });
      expect(done.status).toBe(200);
      const callback = new URL((await browser.follow(String(done.body.redirect_to))).url);
      expect(callback.origin + callback.pathname).toBe(RP_REDIRECT);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: strong.verifier,
        expectedState: strong.state,
      });
      expect(tokens.claims()).toMatchObject({
        sub: user.id,
        sid: session.sessionId,
        acr: LOA_2,
        amr: ['pwd', 'mfa'],
      });

      // The provider session is loa:2 now: the next request for it is answered at once.
      const again = await authorizationUrl(config, { acr_values: LOA_2 });
      const direct = new URL((await browser.follow(again.url.href)).url);
      expect(direct.origin + direct.pathname).toBe(RP_REDIRECT);
      const second = await client.authorizationCodeGrant(config, direct, {
        pkceCodeVerifier: again.verifier,
        expectedState: again.state,
      });
      expect(second.claims()).toMatchObject({ sub: user.id, acr: LOA_2 });
    });

    it('a client registered with default_acr_values loa:2 asks a password-only session to sign in again; a sign-in with TOTP gives loa:2', async () => {
      const register = await fetch(`${op.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Needs MFA',
          redirect_uris: [RP_REDIRECT],
          default_acr_values: [LOA_2],
          token_endpoint_auth_method: 'none',
        }),
      });
      expect(register.status).toBe(201);
      const registered = (await register.json()) as {
        client_id: string;
        default_acr_values?: string[];
      };
      expect(registered.default_acr_values).toEqual([LOA_2]);
      const rows = await stack.cp.dataSource.query(
        `SELECT default_acr_values, self_registered, first_party FROM oauth_clients WHERE client_id = $1`,
        [registered.client_id],
      );
      expect(rows).toEqual([
        { default_acr_values: [LOA_2], self_registered: true, first_party: false },
      ]);
      const strict = await discover({ client_id: registered.client_id });

      // The browser is signed in to the provider with a password only (through an admin client of the project).
      const admin = await discover(await stack.client(op.project.id, { first_party: true }));
      const user = await newUser();
      const { browser, session } = await passwordOnlyProviderSession(admin, user.email);
      const step = currentStep();
      const secret = await enrolTotp(session.accessToken, step);

      // No acr_values in the request: the client's default asks for loa:2, so the login prompt (not consent with a loa:1 session).
      const req = await authorizationUrl(strict);
      const atLogin = new URL((await browser.follow(req.url.href)).url);
      expect(atLogin.origin + atLogin.pathname).toBe(`${op.issuer}/pages/sign-in`);
      const uid = atLogin.searchParams.get('interaction')!;
      expect((await stack.interaction(op.projectKey, 'GET', uid)).body).toMatchObject({
        prompt: 'login',
        client: { client_id: registered.client_id, name: 'Needs MFA', first_party: false },
      });
      const refused = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      expect(refused.status).toBe(403);
      expect(String(refused.body.type)).toMatch(/\/reauthentication-required$/);

      // A new sign-in with the password and the TOTP code completes it, then the consent of the third-party client.
      const mfa = await signInWithTotp(user.email, secret, step + 1);
      expect(await authMethod(mfa.sessionId)).toBe('mfa');
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: mfa.accessToken,
      });
      expect(done.status).toBe(200);
      const atConsent = new URL((await browser.follow(String(done.body.redirect_to))).url);
      const consentUid = atConsent.searchParams.get('interaction')!;
      expect((await stack.interaction(op.projectKey, 'GET', consentUid)).body).toMatchObject({
        prompt: 'consent',
      });
      const consented = await stack.interaction(op.projectKey, 'POST', `${consentUid}/consent`, {
        token: mfa.accessToken,
        body: { scopes: ['openid', 'email'] },
      });
      expect(consented.status).toBe(200);
      const callback = new URL((await browser.follow(String(consented.body.redirect_to))).url);
      expect(callback.origin + callback.pathname).toBe(RP_REDIRECT);
      const tokens = await client.authorizationCodeGrant(strict, callback, {
        pkceCodeVerifier: req.verifier,
        expectedState: req.state,
      });
      expect(tokens.claims()).toMatchObject({
        sub: user.id,
        sid: mfa.sessionId,
        acr: LOA_2,
        amr: ['pwd', 'mfa'],
      });
    });

    it('a user with no second factor and no passkey is refused (403 forbidden, the interaction stays open): ending it gives the client access_denied; once they set one up and sign in with it, loa:2', async () => {
      const rp = await stack.client(op.project.id, { first_party: true });
      const config = await discover(rp);
      const user = await newUser();
      const { browser, session } = await passwordOnlyProviderSession(config, user.email);
      const strong = await authorizationUrl(config, { acr_values: LOA_2 });
      const uid = new URL((await browser.follow(strong.url.href)).url).searchParams.get(
        'interaction',
      )!;
      expect(uid).toBeTruthy();
      const refused = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      expect(refused).toEqual({
        status: 403,
        body: {
          type: expect.stringMatching(/\/forbidden$/),
          title: 'Forbidden',
          status: 403,
          detail: `The application asks for ${LOA_2}, which needs a second factor or a passkey, and this account has neither: set one up and sign in with it, or end the request (POST …/abort).`,
          instance: `/v1/auth/oidc/interactions/${uid}/complete`,
          traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
          required_acr: LOA_2,
        },
      });
      // The hosted page's way out: the request ends at the client, with no code.
      const aborted = await stack.interaction(op.projectKey, 'POST', `${uid}/abort`);
      expect(aborted.status).toBe(200);
      const back = new URL((await browser.follow(String(aborted.body.redirect_to))).url);
      expect(back.origin + back.pathname).toBe(RP_REDIRECT);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe(strong.state);
      expect(back.searchParams.get('code')).toBeNull();

      // An application's own login page may have them set one up first: then a sign-in with it completes the request.
      const retry = await authorizationUrl(config, { acr_values: LOA_2 });
      const uid2 = new URL((await browser.follow(retry.url.href)).url).searchParams.get(
        'interaction',
      )!;
      expect(
        (
          await stack.interaction(op.projectKey, 'POST', `${uid2}/complete`, {
            token: session.accessToken,
          })
        ).status,
      ).toBe(403);
      const step = currentStep();
      const secret = await enrolTotp(session.accessToken, step);
      const mfa = await signInWithTotp(user.email, secret, step + 1);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid2}/complete`, {
        token: mfa.accessToken,
      });
      expect(done.status).toBe(200);
      const callback = new URL((await browser.follow(String(done.body.redirect_to))).url);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: retry.verifier,
        expectedState: retry.state,
      });
      expect(tokens.claims()).toMatchObject({ sub: user.id, sid: mfa.sessionId, acr: LOA_2 });

      // A request that accepts either level is answered by a password-only session at once.
      const other = await newUser();
      const plain = await passwordOnlyProviderSession(config, other.email);
      const either = await authorizationUrl(config, { acr_values: `${LOA_2} ${LOA_1}` });
      const direct = new URL((await plain.browser.follow(either.url.href)).url);
      expect(direct.origin + direct.pathname).toBe(RP_REDIRECT);
      const plainTokens = await client.authorizationCodeGrant(config, direct, {
        pkceCodeVerifier: either.verifier,
        expectedState: either.state,
      });
      expect(plainTokens.claims()).toMatchObject({ sub: other.id, acr: LOA_1 });
    });
  });

  describe('self-registered clients: no open redirector (RFC 9700 §4.11.2)', () => {
    let evil: { client_id: string };

    beforeAll(async () => {
      const res = await fetch(`${op.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: EVIL_NAME,
          redirect_uris: [EVIL_REDIRECT],
          post_logout_redirect_uris: [EVIL_LOGOUT],
          token_endpoint_auth_method: 'none',
          scope: 'openid',
        }),
      });
      expect(res.status).toBe(201);
      evil = (await res.json()) as { client_id: string };
    });

    const authorizeUrl = (params: Record<string, string>) => {
      const url = new URL(`${op.issuer}/authorize`);
      url.search = new URLSearchParams({
        client_id: evil.client_id,
        response_type: 'code',
        redirect_uri: EVIL_REDIRECT,
        scope: 'openid',
        state: 'st-1',
        ...params,
      }).toString();
      return url.href;
    };
    const pkce = {
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    };

    /** The hosted error page: 400 HTML under the hosted pages' CSP, the escaped client name and a link to its redirect URI with the error. */
    async function expectErrorPage(res: Response, error: string) {
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      const csp = res.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toBe(
        `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; font-src 'self'; connect-src 'self' ${new URL(stack.authUrl).origin}; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'`,
      );
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.text();
      expect(body).not.toContain('<script');
      expect(body).not.toContain('<img');
      expect(body).toContain(`<strong id="client-name">${escaped(EVIL_NAME)}</strong>`);
      expect(body).toContain(`<style nonce="${nonce}">`);
      expect(body).toContain(`Error code: <code>${error}</code>`);
      const href = /<a id="client-link" href="([^"]+)"/.exec(body)?.[1];
      expect(href).toBeTruthy();
      const link = new URL(unescaped(href!));
      expect(link.origin + link.pathname).toBe(EVIL_REDIRECT);
      expect(link.searchParams.get('error')).toBe(error);
      expect(link.searchParams.get('state')).toBe('st-1');
      expect(link.searchParams.get('iss')).toBe(op.issuer);
      expect(link.searchParams.get('code')).toBeNull();
      expect(body).toContain(
        `Return to ${escaped(EVIL_NAME)}</a> <span class="host">(evil.example)</span>`,
      );
      return body;
    }

    it('errors before sign-in (no PKCE, a bad scope, a bad response_type, prompt=none without a session) are shown on the error page with the client name and a link, never redirected', async () => {
      await expectErrorPage(
        await fetch(authorizeUrl({}), { redirect: 'manual' }),
        'invalid_request',
      );
      // The client registered for `openid` only.
      await expectErrorPage(
        await fetch(authorizeUrl({ ...pkce, scope: 'openid email' }), { redirect: 'manual' }),
        'invalid_scope',
      );
      await expectErrorPage(
        await fetch(authorizeUrl({ ...pkce, response_type: 'token' }), { redirect: 'manual' }),
        'unsupported_response_type',
      );
      await expectErrorPage(
        await fetch(authorizeUrl({ ...pkce, prompt: 'none' }), { redirect: 'manual' }),
        'login_required',
      );
      // A valid request still goes to the sign-in page, as for any client.
      const valid = await fetch(authorizeUrl(pkce), { redirect: 'manual' });
      expect(valid.status).toBe(303);
      expect(new URL(valid.headers.get('location')!).pathname).toBe(
        `/v1/projects/${op.project.id}/pages/sign-in`,
      );
    });

    it('an admin-created client keeps the standard error redirect', async () => {
      const rp = await stack.client(op.project.id, { first_party: true, name: 'Admin made' });
      const url = new URL(`${op.issuer}/authorize`);
      url.search = new URLSearchParams({
        client_id: rp.client_id,
        response_type: 'code',
        redirect_uri: RP_REDIRECT,
        scope: 'openid',
        state: 'st-2',
      }).toString();
      const res = await fetch(url.href, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(RP_REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('st-2');
      expect(location.searchParams.get('iss')).toBe(op.issuer);
    });

    /** Signs a user in through the self-registered client (login, consent, code exchange): the browser, the session and its ID token. */
    async function signedInThroughEvil() {
      const config = await discover({ client_id: evil.client_id });
      const user = await newUser();
      const browser = new Browser(stack.authUrl);
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: EVIL_REDIRECT,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'st-3',
      });
      const uid = new URL((await browser.follow(url.href)).url).searchParams.get('interaction')!;
      const session = await stack.signIn(op.projectKey, user.email);
      const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
        token: session.accessToken,
      });
      const consentUid = new URL(
        (await browser.follow(String(done.body.redirect_to))).url,
      ).searchParams.get('interaction')!;
      const consented = await stack.interaction(op.projectKey, 'POST', `${consentUid}/consent`, {
        token: session.accessToken,
        body: { scopes: ['openid'] },
      });
      const callback = new URL((await browser.follow(String(consented.body.redirect_to))).url);
      // The user signed in: from here, the standard redirect (with a code) to the client's own URI.
      expect(callback.origin + callback.pathname).toBe(EVIL_REDIRECT);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: 'st-3',
      });
      return { browser, session, idToken: tokens.id_token!, user };
    }

    const revoked = async (sessionId: string) =>
      (
        await stack.cp.dataSource.query(
          `SELECT revoked_at, revoke_reason FROM sessions WHERE id = $1`,
          [sessionId],
        )
      )[0] as { revoked_at: Date | null; revoke_reason: string | null };

    /** Submits the end-session page's form (the logout form, or the auto-submitted one without a session) as the browser would. */
    async function confirm(browser: Browser, page: { status: number; body: string }) {
      const form = /<form[^>]*action="([^"]+)"[\s\S]*?<\/form>/.exec(page.body)!;
      expect(new URL(form[1], op.issuer).href).toBe(`${op.issuer}/end-session/confirm`);
      const fields = Object.fromEntries(
        [...form[0].matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [
          m[1],
          m[2],
        ]),
      );
      return browser.post(`${op.issuer}/end-session/confirm`, { ...fields, logout: 'yes' });
    }

    it('end-session with client_id and a post_logout_redirect_uri but no id_token_hint ends on the signed-out page, with or without a session', async () => {
      const logout = `${op.issuer}/end-session?${new URLSearchParams({ client_id: evil.client_id, post_logout_redirect_uri: EVIL_LOGOUT, state: 'bye' })}`;
      // No session: the page submits itself to the provider's own confirm, which ends on the signed-out page.
      const anonymous = new Browser(stack.authUrl);
      const page = await anonymous.get(logout);
      expect(page.status).toBe(200);
      expect(page.location).toBeNull();
      expect(page.body).not.toContain('evil.example');
      const done = await confirm(anonymous, page);
      expect(done.status).toBe(303);
      expect(done.location).toBe(`${op.issuer}/end-session/success`);
      const success = await anonymous.get(done.location!);
      expect(success.location).toBe(`${op.issuer}/pages/signed-out`);

      // A session: the person is asked, signing out ends the Gatehouse session, and the end is the signed-out page.
      const { browser, session } = await signedInThroughEvil();
      const asked = await browser.get(logout);
      expect(asked.status).toBe(200);
      expect(asked.body).toContain('Sign out');
      expect(asked.body).not.toContain('evil.example');
      const out = await confirm(browser, asked);
      expect(out.status).toBe(303);
      expect(out.location).toBe(`${op.issuer}/end-session/success`);
      expect((await browser.get(out.location!)).location).toBe(`${op.issuer}/pages/signed-out`);
      expect(await revoked(session.sessionId)).toMatchObject({ revoke_reason: 'oidc_logout' });
      expect((await revoked(session.sessionId)).revoked_at).not.toBeNull();
    });

    it('end-session with an invalid id_token_hint is refused on the error page (the session stays); with a valid one of that client the redirect is allowed', async () => {
      const { browser, session, idToken } = await signedInThroughEvil();
      const [header, payload, signature] = idToken.split('.');
      const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      const query = new URLSearchParams({
        id_token_hint: tampered,
        client_id: evil.client_id,
        post_logout_redirect_uri: EVIL_LOGOUT,
      });
      const bad = await fetch(`${op.issuer}/end-session?${query}`, { redirect: 'manual' });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('location')).toBeNull();
      expect(await bad.json()).toEqual({
        error: 'invalid_request',
        error_description: 'could not validate id_token_hint',
      });
      // A browser (Accept: text/html) is sent to the provider's error page, not to the client.
      const page = await fetch(`${op.issuer}/end-session?${query}`, {
        redirect: 'manual',
        headers: { accept: 'text/html' },
      });
      const location = new URL(page.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(`${op.issuer}/pages/error`);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(await revoked(session.sessionId)).toEqual({ revoked_at: null, revoke_reason: null });

      // The client's own ID token: the person confirms, and the client gets them back.
      expect(jose.decodeJwt(idToken).aud).toBe(evil.client_id);
      const good = await browser.get(
        `${op.issuer}/end-session?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: EVIL_LOGOUT, state: 'bye' })}`,
      );
      expect(good.status).toBe(200);
      const out = await confirm(browser, good);
      expect(out.status).toBe(303);
      expect(out.location).toBe(`${EVIL_LOGOUT}?state=bye`);
      expect(await revoked(session.sessionId)).toMatchObject({ revoke_reason: 'oidc_logout' });
    });
  });
});
