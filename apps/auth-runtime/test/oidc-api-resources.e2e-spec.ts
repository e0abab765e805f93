import * as jose from 'jose';
import * as client from 'openid-client';
import { AuditEvent } from '@gatehouse/entities';
import { eventually } from '@gatehouse/testing';
import {
  Browser,
  OidcStack,
  RP_REDIRECT,
  type CreatedClient,
  type OidcProject,
} from './support/oidc-stack';

const MCP = 'https://mcp.example.com/mcp';
const REPORTS = 'https://reports.example.com/';

/**
 * API resources (issue 34 §4): a token request naming an API the admin registered gets an RFC 9068
 * JWT for it (`aud` = identifier, the granted scopes among the API's, `client_id`, `sub`), a
 * third-party client only after the user's consent, a self-registered client only for an API that
 * allows dynamic clients; anything else stays `invalid_target`. Against the real auth runtime process.
 */
describe("OIDC provider: tokens for the project's API resources", () => {
  const stack = new OidcStack();
  let op: OidcProject;
  let userCount = 0;

  beforeAll(async () => {
    await stack.start();
    op = await stack.oidcProject({ dynamic_registration: true });
  }, 60_000);
  afterAll(() => stack.stop());

  const newUser = async () => {
    userCount += 1;
    const email = `api-user${userCount}@example.com`;
    return { id: (await stack.user(op.project, email)).id, email };
  };
  const resource = async (body: Record<string, unknown>) => {
    const res = await stack.admin().post(`/v1/admin/projects/${op.project.id}/api-resources`, {
      name: 'API',
      scopes: [],
      ...body,
    });
    if (res.status !== 201)
      throw new Error(`api resource: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; identifier: string };
  };
  const discover = (c: CreatedClient) =>
    client.discovery(
      new URL(op.issuer),
      c.client_id,
      c.client_secret,
      c.client_secret ? undefined : client.None(),
      { execute: [client.allowInsecureRequests] },
    );
  const jwks = () => jose.createRemoteJWKSet(new URL(`${op.issuer}/jwks`));
  const register = async (body: Record<string, unknown>) => {
    const res = await fetch(`${op.issuer}/register`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.77.${userCount}.${Math.floor(Math.random() * 250)}`,
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  async function authorize(config: client.Configuration, params: Record<string, string>) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: RP_REDIRECT,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...params,
    });
    return { url, verifier, state };
  }

  /** The browser's part up to the consent prompt: authorization request → login → complete; returns the consent interaction. */
  async function untilConsent(
    config: client.Configuration,
    email: string,
    params: Record<string, string>,
  ) {
    const req = await authorize(config, params);
    const browser = new Browser(stack.authUrl);
    const atLogin = new URL((await browser.follow(req.url.href)).url);
    const uid = atLogin.searchParams.get('interaction');
    if (!uid) throw new Error(`no interaction: ${atLogin.href}`);
    const session = await stack.signIn(op.projectKey, email);
    const done = await stack.interaction(op.projectKey, 'POST', `${uid}/complete`, {
      token: session.accessToken,
    });
    expect(done.status).toBe(200);
    const landed = new URL((await browser.follow(String(done.body.redirect_to))).url);
    return { req, browser, session, landed, consentUid: landed.searchParams.get('interaction') };
  }

  async function consentAndExchange(
    config: client.Configuration,
    flow: Awaited<ReturnType<typeof untilConsent>>,
    scopes: string[],
    tokenResource: string,
  ) {
    const consented = await stack.interaction(op.projectKey, 'POST', `${flow.consentUid}/consent`, {
      token: flow.session.accessToken,
      body: { scopes },
    });
    expect(consented.status).toBe(200);
    const callback = new URL((await flow.browser.follow(String(consented.body.redirect_to))).url);
    expect(callback.origin + callback.pathname).toBe(RP_REDIRECT);
    return client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: flow.req.verifier, expectedState: flow.req.state },
      { resource: tokenResource },
    );
  }

  it("gives a third-party client, after the user consents to the API's scopes, a JWT with aud = the identifier, the granted scopes, client_id and sub; a scope the API lacks is neither asked nor granted", async () => {
    await resource({
      identifier: MCP,
      name: 'MCP server',
      scopes: [
        { name: 'mcp:tools', description: 'Use the tools' },
        { name: 'mcp:read', description: 'Read' },
      ],
      access_token_ttl_seconds: 300,
    });
    const rp = await stack.client(op.project.id, { name: 'Third-party app' });
    const config = await discover(rp);
    const user = await newUser();
    const flow = await untilConsent(config, user.email, {
      scope: 'openid mcp:tools mcp:read mcp:admin',
      resource: MCP,
    });
    expect(flow.landed.pathname).toBe(`/v1/projects/${op.project.id}/pages/sign-in`);
    const described = await stack.interaction(op.projectKey, 'GET', flow.consentUid!);
    // (`create` is the sign-up hint of the interaction, not this test's business.)
    const { create: _signUp, ...view } = described.body;
    expect(view).toEqual({
      uid: flow.consentUid,
      prompt: 'consent',
      client: { client_id: rp.client_id, name: 'Third-party app', first_party: false },
      scopes: ['openid', 'mcp:tools', 'mcp:read'],
      resources: [
        {
          identifier: MCP,
          name: 'MCP server',
          scopes: [
            { name: 'mcp:tools', description: 'Use the tools' },
            { name: 'mcp:read', description: 'Read' },
          ],
        },
      ],
      expires_at: expect.any(String),
    });
    const smuggled = await stack.interaction(op.projectKey, 'POST', `${flow.consentUid}/consent`, {
      token: flow.session.accessToken,
      body: { scopes: ['openid', 'mcp:admin'] },
    });
    expect(smuggled.status).toBe(400);
    expect(smuggled.body).toMatchObject({
      type: 'https://gatehouse.dev/problems/validation-error',
      errors: { scopes: [expect.stringContaining('not requested: mcp:admin')] },
    });

    // The user grants mcp:tools only.
    const tokens = await consentAndExchange(config, flow, ['openid', 'mcp:tools'], MCP);
    expect(jose.decodeProtectedHeader(tokens.access_token)).toMatchObject({
      typ: 'at+jwt',
      alg: 'ES256',
      kid: expect.any(String),
    });
    const { payload } = await jose.jwtVerify(tokens.access_token, jwks(), {
      issuer: op.issuer,
      audience: MCP,
      typ: 'at+jwt',
      algorithms: ['ES256'],
    });
    expect(payload).toEqual({
      iss: op.issuer,
      aud: MCP,
      sub: user.id,
      client_id: rp.client_id,
      scope: 'mcp:tools',
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: (payload.iat as number) + 300,
    });
    expect(tokens.scope).toBe('mcp:tools');
    expect(tokens.expires_in).toBe(300);
    // The ID token is the client's, as always.
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: rp.client_id });
    const grants = await stack.cp.dataSource.query(
      `SELECT user_id, client_id, session_id FROM oauth_grants WHERE client_id = $1`,
      [rp.client_id],
    );
    expect(grants).toEqual([
      { user_id: user.id, client_id: rp.client_id, session_id: flow.session.sessionId },
    ]);
    // The grant's event records what the user allowed for the API.
    const [event] = await stack.cp.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'oauth_grant.created', actorId: user.id } });
    expect(event.metadata).toEqual({
      grant_id: expect.any(String),
      client_id: rp.client_id,
      user_id: user.id,
      session_id: flow.session.sessionId,
      scopes: ['openid'],
      resources: { [MCP]: ['mcp:tools'] },
    });
  });

  it("a self-registered client registers the API's scopes, but gets invalid_target for an API without allow_dynamic_clients; once allowed, a JWT after consent", async () => {
    const api = await resource({
      identifier: REPORTS,
      name: 'Reports',
      scopes: [{ name: 'reports:read', description: 'Read your reports' }],
    });
    // Before any API accepts dynamic clients, its scopes are unknown to registration.
    expect(
      await register({
        client_name: 'Early bird',
        redirect_uris: [RP_REDIRECT],
        token_endpoint_auth_method: 'none',
        scope: 'reports:read',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });

    const registered = await register({
      client_name: 'Agent',
      redirect_uris: [RP_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
    });
    expect(registered.status).toBe(201);
    const agent = { client_id: String(registered.body.client_id) };
    const config = await discover(agent);
    const refused = await authorize(config, { scope: 'openid reports:read', resource: REPORTS });
    const page = await new Browser(stack.authUrl).get(refused.url.href);
    // A self-registered client's error before sign-in is shown, not redirected (docs/oidc.md).
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.body).toContain('<code>invalid_target</code>');
    expect(page.body).toContain('error=invalid_target');

    expect(
      (
        await stack.admin().patch(`/v1/admin/projects/${op.project.id}/api-resources/${api.id}`, {
          allow_dynamic_clients: true,
        })
      ).status,
    ).toBe(200);
    // Now registration accepts the API's scopes (taken out of the client's OpenID Connect scopes), still not an unknown one.
    const withScope = await register({
      client_name: 'MCP-style',
      redirect_uris: [RP_REDIRECT],
      token_endpoint_auth_method: 'none',
      scope: 'reports:read',
    });
    expect(withScope.status).toBe(201);
    expect(withScope.body.scope).toBe('openid');
    expect(
      await register({
        client_name: 'Greedy',
        redirect_uris: [RP_REDIRECT],
        token_endpoint_auth_method: 'none',
        scope: 'reports:read reports:delete',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });

    const user = await newUser();
    const flow = await untilConsent(config, user.email, {
      scope: 'openid reports:read',
      resource: REPORTS,
    });
    expect((await stack.interaction(op.projectKey, 'GET', flow.consentUid!)).body).toMatchObject({
      prompt: 'consent',
      client: { client_id: agent.client_id, first_party: false },
      scopes: ['openid', 'reports:read'],
      resources: [
        {
          identifier: REPORTS,
          name: 'Reports',
          scopes: [{ name: 'reports:read', description: 'Read your reports' }],
        },
      ],
    });
    const tokens = await consentAndExchange(config, flow, ['openid', 'reports:read'], REPORTS);
    const { payload } = await jose.jwtVerify(tokens.access_token, jwks(), {
      issuer: op.issuer,
      audience: REPORTS,
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({
      aud: REPORTS,
      sub: user.id,
      client_id: agent.client_id,
      scope: 'reports:read',
    });
    // The project's access-token lifetime applies when the API names none.
    expect((payload.exp as number) - (payload.iat as number)).toBe(900);
  });

  it('an unregistered resource stays invalid_target; a first-party client gets a token without a user only for a registered API or one on an allowed origin; a deleted API is invalid_target', async () => {
    const api = await resource({
      identifier: 'https://billing.example.com/api',
      name: 'Billing',
      scopes: [{ name: 'billing:read' }],
    });
    const machine = await stack.client(op.project.id, {
      first_party: true,
      grant_types: ['client_credentials'],
      redirect_uris: [],
    });
    const third = await stack.client(op.project.id, {
      grant_types: ['client_credentials'],
      redirect_uris: [],
    });
    const m = await discover(machine);
    const cc = await client.clientCredentialsGrant(m, {
      resource: 'https://billing.example.com/api',
      scope: 'billing:read',
    });
    const { payload } = await jose.jwtVerify(cc.access_token, jwks(), {
      issuer: op.issuer,
      audience: 'https://billing.example.com/api',
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({
      client_id: machine.client_id,
      sub: machine.client_id,
      scope: 'billing:read',
    });
    // The allowed-origin rule of before: the project's allowed origin http://127.0.0.1:5599.
    const legacy = await client.clientCredentialsGrant(m, {
      resource: 'http://127.0.0.1:5599/api',
    });
    expect(
      (
        await jose.jwtVerify(legacy.access_token, jwks(), {
          issuer: op.issuer,
          audience: 'http://127.0.0.1:5599/api',
          typ: 'at+jwt',
        })
      ).payload,
    ).toMatchObject({ client_id: machine.client_id });

    await expect(
      client.clientCredentialsGrant(await discover(third), {
        resource: 'https://billing.example.com/api',
      }),
    ).rejects.toMatchObject({ error: 'invalid_target' });
    await expect(
      client.clientCredentialsGrant(await discover(third), {
        resource: 'http://127.0.0.1:5599/api',
      }),
    ).rejects.toMatchObject({ error: 'invalid_target' });
    await expect(
      client.clientCredentialsGrant(m, { resource: 'https://unregistered.example.com/' }),
    ).rejects.toMatchObject({ error: 'invalid_target' });

    expect(
      (await stack.admin().delete(`/v1/admin/projects/${op.project.id}/api-resources/${api.id}`))
        .status,
    ).toBe(204);
    await expect(
      client.clientCredentialsGrant(m, { resource: 'https://billing.example.com/api' }),
    ).rejects.toMatchObject({ error: 'invalid_target' });
    // Each refusal is an oauth_token.failed event (written in the background).
    const refusals = async () =>
      (
        await stack.cp.dataSource
          .getRepository(AuditEvent)
          .find({ where: { action: 'oauth_token.failed', projectId: op.project.id } })
      ).filter((e) => (e.metadata as { error?: string }).error === 'invalid_target');
    await eventually(async () => (await refusals()).length === 4);
    expect(
      (await refusals()).map((e) => (e.metadata as { client_id?: string }).client_id).sort(),
    ).toEqual([machine.client_id, machine.client_id, third.client_id, third.client_id].sort());
  });
});
