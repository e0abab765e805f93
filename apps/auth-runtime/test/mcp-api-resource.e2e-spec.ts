import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the MCP server checks its tokens with the published SDK, as an application would
import { createGatehouse, GatehouseAuthError, problemFor, type Gatehouse } from '@gatehouse/server';
import { buildAuthPages } from './support/auth-pages-build';
import { OidcStack, PASSWORD, type OidcProject } from './support/oidc-stack';
import { PagesBrowser } from './support/pages-browser';

const SCOPE = 'mcp:tools';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * An MCP server as docs/oidc.md "Protecting an MCP server" describes it: the SDK's McpServer over
 * Streamable HTTP (stateless), RFC 9728 protected-resource metadata naming the project's issuer,
 * and every request's bearer token checked with @gatehouse/server's verifyResourceToken before the
 * SDK sees it; a refusal is 401 with `WWW-Authenticate: Bearer resource_metadata=…` (or 403
 * insufficient_scope). The tool `whoami` answers with what the checked token says.
 */
class TestMcpServer {
  private readonly server = createServer((req, res) => void this.handle(req, res));
  url = '';
  gatehouse!: Gatehouse;
  issuer = '';
  readonly refusals: string[] = [];

  get resource(): string {
    return `${this.url}/mcp`;
  }

  get metadataUrl(): string {
    return `${this.url}/.well-known/oauth-protected-resource/mcp`;
  }

  async start(): Promise<void> {
    this.url = await listen(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          resource: this.resource,
          authorization_servers: [this.issuer],
          scopes_supported: [SCOPE],
          bearer_methods_supported: ['header'],
          resource_name: 'Test MCP server',
        }),
      );
      return;
    }
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    let auth: AuthInfo;
    try {
      const claims = await this.gatehouse.verifyResourceToken(token, { scopes: [SCOPE] });
      auth = {
        token,
        clientId: claims.client_id,
        scopes: claims.scopes,
        expiresAt: claims.exp,
        resource: new URL(this.resource),
        extra: { sub: claims.sub },
      };
    } catch (err) {
      if (!GatehouseAuthError.is(err)) throw err;
      this.refusals.push(err.code);
      const { status, body, headers } = problemFor(err);
      // RFC 9728 §5.1: the challenge says where the protected-resource metadata is.
      const challenge =
        status === 401
          ? `Bearer resource_metadata="${this.metadataUrl}"${token ? ', error="invalid_token"' : ''}`
          : headers['www-authenticate'];
      res.writeHead(status, { ...headers, 'www-authenticate': challenge });
      res.end(JSON.stringify(body));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const mcp = new McpServer({ name: 'gatehouse-test-mcp', version: '1.0.0' });
    mcp.registerTool(
      'whoami',
      { description: 'Who is calling, as the access token says' },
      (extra) => ({
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              user: extra.authInfo?.extra?.sub,
              client_id: extra.authInfo?.clientId,
              scopes: extra.authInfo?.scopes,
            }),
          },
        ],
      }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
    await transport.handleRequest(
      req,
      res,
      chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined,
    );
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The MCP client's OAuth state, kept in memory; the authorization URL is handed to the browser. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test MCP client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * Issue 34 §6: an MCP client with the SDK's own OAuth (RFC 9728 → RFC 8414 → RFC 7591 → PKCE →
 * RFC 8707) against an SDK MCP server whose requests are checked with @gatehouse/server; the
 * person signs in and consents on the hosted pages, in Chromium.
 */
describe("MCP: the SDK client authorizes with a project's provider and calls a tool of an MCP server protected by @gatehouse/server", () => {
  const stack = new OidcStack();
  const mcp = new TestMcpServer();
  const callbacks: string[] = [];
  const callbackServer = createServer((req, res) => {
    callbacks.push(req.url ?? '');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Signed in</title><h1>You can close this tab</h1>');
  });
  let callbackUrl = '';
  let browser: PagesBrowser;
  let page: Page;
  let op: OidcProject;

  beforeAll(async () => {
    buildAuthPages();
    await stack.start();
    op = await stack.oidcProject({ dynamic_registration: true });
    await mcp.start();
    callbackUrl = `${await listen(callbackServer)}/callback`;
    mcp.issuer = op.issuer;
    mcp.gatehouse = createGatehouse({
      authUrl: stack.authUrl,
      projectId: op.project.id,
      projectKey: op.projectKey,
      resource: mcp.resource,
    });
    browser = await PagesBrowser.launch([new URL(stack.authUrl).host, new URL(callbackUrl).host]);
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await mcp.stop();
    await new Promise((resolve) => callbackServer.close(resolve));
    await stack.stop();
  });

  it("registers itself, the person signs in and allows mcp:tools on the hosted pages, and the tool answers with the token's user and client; the token is an RFC 9068 JWT for the MCP server only", async () => {
    const registered = await stack
      .admin()
      .post(`/v1/admin/projects/${op.project.id}/api-resources`, {
        identifier: mcp.resource,
        name: 'Test MCP server',
        scopes: [{ name: SCOPE, description: 'Use the tools of the test MCP server' }],
        allow_dynamic_clients: true,
      });
    expect(registered.status).toBe(201);
    const user = await stack.user(op.project, 'mcp-user@example.com');

    // 1. The SDK client meets a 401, discovers (RFC 9728, RFC 8414), registers (RFC 7591) and sends the person to authorize (PKCE, RFC 8707).
    const oauth = new MemoryOAuthProvider(callbackUrl);
    const first = new Client({ name: 'test-mcp-client', version: '1.0.0' });
    await expect(
      first.connect(
        new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: oauth }),
      ),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(mcp.refusals).toEqual(['missing_token']);
    const clientId = String(oauth.client?.client_id);
    expect(clientId).toMatch(/^oc_/);
    expect(
      await stack.cp.dataSource.query(
        `SELECT name, self_registered, first_party, token_endpoint_auth_method FROM oauth_clients WHERE client_id = $1`,
        [clientId],
      ),
    ).toEqual([
      {
        name: 'Test MCP client',
        self_registered: true,
        first_party: false,
        token_endpoint_auth_method: 'none',
      },
    ]);
    const authorizationUrl = oauth.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${op.issuer}/authorize`);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: clientId,
      resource: mcp.resource,
      scope: SCOPE,
      code_challenge_method: 'S256',
      redirect_uri: callbackUrl,
      response_type: 'code',
    });

    // 2. The person: sign-in and consent on the hosted pages.
    await page.goto(authorizationUrl.href);
    await page.getByLabel('Email').fill('mcp-user@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Allow access?' }).waitFor();
    const permissions = page.getByRole('list', { name: 'Requested permissions' });
    // The API's scope in the words its admin wrote, naming the API.
    expect(
      (await permissions.getByRole('listitem').allInnerTexts()).map((t) =>
        t.replace(/\s+/g, ' ').trim(),
      ),
    ).toEqual(['Use the tools of the test MCP server mcp:tools · Test MCP server']);
    await expect(page.getByText('Test MCP client', { exact: true }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(callbackUrl));
    const callback = new URL(page.url());
    expect(callback.searchParams.get('iss')).toBe(op.issuer);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    // 3. The client exchanges the code (PKCE, resource) and calls the tool.
    const finishing = new StreamableHTTPClientTransport(new URL(mcp.resource), {
      authProvider: oauth,
    });
    await finishing.finishAuth(code!);
    const accessToken = oauth.saved!.access_token;
    const second = new Client({ name: 'test-mcp-client', version: '1.0.0' });
    await second.connect(
      new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: oauth }),
    );
    const tools = await second.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['whoami']);
    const answer = await second.callTool({ name: 'whoami', arguments: {} });
    expect(answer).toEqual({
      content: [
        {
          type: 'text',
          text: JSON.stringify({ user: user.id, client_id: clientId, scopes: [SCOPE] }),
        },
      ],
    });
    await second.close();

    // The token: an RFC 9068 JWT of the project's issuer for the MCP server, the consented scope, this client, this person.
    expect(jose.decodeProtectedHeader(accessToken)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    const { payload } = await jose.jwtVerify(
      accessToken,
      jose.createRemoteJWKSet(new URL(`${op.issuer}/jwks`)),
      { issuer: op.issuer, audience: mcp.resource, typ: 'at+jwt' },
    );
    expect(payload).toEqual({
      iss: op.issuer,
      aud: mcp.resource,
      sub: user.id,
      client_id: clientId,
      scope: SCOPE,
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: (payload.iat as number) + 900,
    });
    expect(oauth.saved).toMatchObject({ token_type: 'Bearer', scope: SCOPE, expires_in: 900 });

    // Presented to another API's check (resource B), the same token is refused by audience.
    const other = await stack.admin().post(`/v1/admin/projects/${op.project.id}/api-resources`, {
      identifier: 'https://other-mcp.example.com/mcp',
      name: 'Other',
      scopes: [{ name: SCOPE }],
      allow_dynamic_clients: true,
    });
    expect(other.status).toBe(201);
    const otherCheck = createGatehouse({
      authUrl: stack.authUrl,
      projectId: op.project.id,
      projectKey: op.projectKey,
      resource: 'https://other-mcp.example.com/mcp',
    });
    await expect(otherCheck.verifyResourceToken(accessToken)).rejects.toMatchObject({
      code: 'invalid_token',
    });
    // And the project's own session-token check does not take it either.
    await expect(mcp.gatehouse.verifyAccessToken(accessToken)).rejects.toMatchObject({
      code: 'invalid_token',
    });

    // A forged or foreign token at the MCP server: 401 with the RFC 9728 challenge.
    const forged = await fetch(mcp.resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken.slice(0, -4)}AAAA`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${mcp.metadataUrl}", error="invalid_token"`,
    );

    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
    expect(mcp.refusals).toEqual(['missing_token', 'invalid_token']);
    expect(callbacks.filter((c) => c.startsWith('/callback'))).toEqual([
      `${callback.pathname}${callback.search}`,
    ]);
  });
});
