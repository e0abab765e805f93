import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccessTokensService } from '@gatehouse/identity';
import { mintAccessToken, createUser } from '@gatehouse/testing';
import { createGatehouse, type AccessTokenClaims, type Gatehouse } from '@gatehouse/server';
import {
  requireAuth as expressAuth,
  requirePermission as expressPermission,
  requireRecentAuth as expressRecent,
  type WithAuth,
} from '@gatehouse/server/express';
import {
  requireAuth as fastifyAuth,
  requirePermission as fastifyPermission,
  requireRecentAuth as fastifyRecent,
} from '@gatehouse/server/fastify';
import {
  CurrentUser,
  GatehouseGuard,
  requirePermission as nestPermission,
} from '@gatehouse/server/nest';
import {
  authenticateRequest,
  requirePermission as nextPermission,
  withAuth,
} from '@gatehouse/server/next';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the stack of the OIDC journeys: the runtime as a real process on a known URL, the control plane in process
import { OidcStack } from '../../apps/auth-runtime/test/support/oidc-stack';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessTokenClaims | null;
  }
}

@Controller('api')
class MeController {
  @Get('me')
  me(@CurrentUser('sub') sub: string, @CurrentUser() claims: AccessTokenClaims) {
    return { user_id: sub, session_id: claims.sid };
  }

  @Get('invoices')
  @UseGuards(nestPermission('invoices:read'))
  invoices(@CurrentUser('sub') sub: string) {
    return { user_id: sub };
  }
}

@Module({ controllers: [MeController] })
class ApiModule {}

/** One answer of an adapter, normalised for comparison. */
interface Answer {
  status: number;
  body: Record<string, unknown>;
  challenge: string | null;
  /** The media type, without parameters. */
  type?: string | null;
}

/**
 * @gatehouse/server's adapters for Express, Fastify, NestJS and Next.js (Fetch API) against tokens
 * the real auth runtime issued: each accepts a live token, refuses a missing, forged, foreign or
 * stale one with the same problem answers, and applies requireRecentAuth.
 */
describe('@gatehouse/server framework adapters against the real auth runtime', () => {
  const stack = new OidcStack();
  let gatehouse: Gatehouse;
  let tokens: {
    live: string;
    stale: string;
    foreign: string;
    forged: string;
    billing: string;
    member: string;
    userId: string;
  };
  const servers: Server[] = [];

  async function listen(app: { listen: (port: number, host: string) => Server }): Promise<string> {
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  /** An answer as compared; `withType` adds its media type. */
  async function answerOf(res: Response, withType = false): Promise<Answer> {
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      challenge: res.headers.get('www-authenticate'),
      ...(withType ? { type: res.headers.get('content-type')?.split(';')[0] ?? null } : {}),
    };
  }
  async function call(url: string, token?: string, withType = false): Promise<Answer> {
    const res = await fetch(url, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    return answerOf(res, withType);
  }

  beforeAll(async () => {
    await stack.start();
    const { project } = await stack.oidcProject();
    const user = await createUser(stack.cp.app, project, 'ada@example.com');
    const live = await mintAccessToken(stack.cp.app, user.id);
    const stale = await stack.cp.app.get(AccessTokensService).issue({
      tenantId: user.tenantId,
      projectId: project.id,
      userId: user.id,
      sessionId: live.sessionId,
      isAdmin: false,
      authTime: new Date(Date.now() - 3_600_000),
    });
    // Tokens of the same session with an active organization, as the runtime signs them (its org claim).
    const withOrganization = (role: string, permissions: string[]) =>
      stack.cp.app.get(AccessTokensService).issue({
        tenantId: user.tenantId,
        projectId: project.id,
        userId: user.id,
        sessionId: live.sessionId,
        isAdmin: false,
        organization: {
          id: '3f1c8a52-9d0e-4b7a-8c61-2e5f4d9b7a10',
          slug: 'acme',
          role,
          permissions,
        },
      });
    const billing = await withOrganization('billing', ['org:members:read', 'invoices:read']);
    const member = await withOrganization('member', []);
    const foreign = await mintAccessToken(stack.cp.app, stack.tenant.adminUserId);
    const [h, p] = live.token.split('.');
    const forged = `${h}.${p}.${Buffer.alloc(64, 7).toString('base64url')}`;
    tokens = {
      live: live.token,
      stale: stale.token,
      foreign: foreign.token,
      forged,
      billing: billing.token,
      member: member.token,
      userId: user.id,
    };
    gatehouse = createGatehouse({
      authUrl: stack.authUrl,
      projectId: project.id,
      projectKey: project.publishableKey,
    });
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    await stack.stop();
  });

  /** The answers every adapter must give: 200 for the live token, 401 problems otherwise. */
  async function expectStandardAnswers(ask: (token?: string) => Promise<Answer>): Promise<void> {
    const ok = await ask(tokens.live);
    expect(ok).toMatchObject({ status: 200, body: { user_id: tokens.userId } });
    expect(await ask()).toEqual({
      status: 401,
      challenge: 'Bearer',
      body: {
        type: 'https://gatehouse.dev/problems/unauthenticated',
        title: 'Unauthenticated',
        status: 401,
        detail: 'No access token was presented.',
      },
    });
    for (const bad of [tokens.forged, tokens.foreign, 'not-a-jwt']) {
      const answer = await ask(bad);
      expect([answer.status, answer.challenge, answer.body.type]).toEqual([
        401,
        'Bearer error="invalid_token"',
        'https://gatehouse.dev/problems/unauthenticated',
      ]);
    }
  }

  /** requirePermission('invoices:read') after the adapter's authentication: the handler for the billing role, 403 otherwise. */
  async function expectPermissionAnswers(
    ask: (token?: string) => Promise<Answer>,
    problemType = 'application/problem+json',
  ): Promise<void> {
    expect(await ask(tokens.billing)).toMatchObject({
      status: 200,
      type: 'application/json',
      body: { user_id: tokens.userId },
    });
    const forbidden = (detail: string) => ({
      status: 403,
      type: problemType,
      challenge: null,
      body: {
        type: 'https://gatehouse.dev/problems/forbidden',
        title: 'Forbidden',
        status: 403,
        detail,
      },
    });
    expect(await ask(tokens.member)).toEqual(
      forbidden('The active organization does not grant invoices:read.'),
    );
    expect(await ask(tokens.live)).toEqual(
      forbidden('This action needs an active organization that grants invoices:read.'),
    );
    expect((await ask()).status).toBe(401);
  }

  it('Express: requireAuth sets req.auth; requireRecentAuth refuses a proof older than the route allows; requirePermission an organization without the permission', async () => {
    const app = express();
    app.get(
      '/api/me',
      expressAuth(gatehouse),
      (req: express.Request & WithAuth, res: express.Response) => {
        res.json({ user_id: req.auth!.sub });
      },
    );
    app.get(
      '/api/recent',
      expressAuth(gatehouse),
      expressRecent(300),
      (req: express.Request & WithAuth, res: express.Response) => {
        res.json({ user_id: req.auth!.sub });
      },
    );
    app.get(
      '/api/invoices',
      expressAuth(gatehouse),
      expressPermission('invoices:read'),
      (req: express.Request & WithAuth, res: express.Response) => {
        res.json({ user_id: req.auth!.sub });
      },
    );
    const url = await listen(app);
    await expectStandardAnswers((t) => call(`${url}/api/me`, t));
    await expectPermissionAnswers((t) => call(`${url}/api/invoices`, t, true));
    expect((await call(`${url}/api/recent`, tokens.live)).status).toBe(200);
    expect(await call(`${url}/api/recent`, tokens.stale)).toMatchObject({
      status: 403,
      body: { type: 'https://gatehouse.dev/problems/reauthentication-required' },
    });
    // The stale token is otherwise a good token.
    expect((await call(`${url}/api/me`, tokens.stale)).status).toBe(200);
  });

  it('Fastify: the onRequest hook sets request.auth or answers the problem before the handler runs', async () => {
    const app = Fastify();
    app.decorateRequest('auth', null);
    let handled = 0;
    app.get('/api/me', { onRequest: fastifyAuth(gatehouse) }, async (request) => {
      handled += 1;
      return { user_id: request.auth!.sub };
    });
    app.get(
      '/api/recent',
      { onRequest: [fastifyAuth(gatehouse), fastifyRecent(300)] },
      async (request) => ({ user_id: request.auth!.sub }),
    );
    app.get(
      '/api/invoices',
      { onRequest: [fastifyAuth(gatehouse), fastifyPermission('invoices:read')] },
      async (request) => {
        handled += 1;
        return { user_id: request.auth!.sub };
      },
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    await expectStandardAnswers((t) => call(`${url}/api/me`, t));
    expect(handled).toBe(1);
    await expectPermissionAnswers((t) => call(`${url}/api/invoices`, t, true));
    expect(handled).toBe(2);
    expect(await call(`${url}/api/recent`, tokens.stale)).toMatchObject({
      status: 403,
      body: { type: 'https://gatehouse.dev/problems/reauthentication-required' },
    });
    await app.close();
  });

  it('NestJS: a global GatehouseGuard and @CurrentUser; requirePermission after it', async () => {
    const app = await NestFactory.create(ApiModule, { logger: false });
    app.useGlobalGuards(new GatehouseGuard(gatehouse));
    await app.init();
    const url = await listen({
      listen: (port, host) =>
        (app.getHttpAdapter().getInstance() as express.Express).listen(port, host),
    });
    await expectStandardAnswers((t) => call(`${url}/api/me`, t));
    expect((await call(`${url}/api/me`, tokens.live)).body).toEqual({
      user_id: tokens.userId,
      session_id: expect.any(String),
    });
    // Nest's exception filter writes the problem as application/json (as GatehouseGuard's refusals).
    await expectPermissionAnswers((t) => call(`${url}/api/invoices`, t, true), 'application/json');
    await app.close();
  });

  it('Next.js route handlers (Fetch API): withAuth, requirePermission inside it, and authenticateRequest', async () => {
    const GET = withAuth(gatehouse, async (_request, { auth }) =>
      Response.json({ user_id: auth.sub }),
    );
    const ask = async (token?: string): Promise<Answer> => {
      const res = await GET(
        new Request('http://app.test/api/me', {
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        }),
      );
      return {
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
        challenge: res.headers.get('www-authenticate'),
      };
    };
    await expectStandardAnswers(ask);
    const invoices = withAuth(
      gatehouse,
      nextPermission('invoices:read', async (_request, { auth }) =>
        Response.json({ user_id: auth.sub }),
      ),
    );
    await expectPermissionAnswers(async (token) =>
      answerOf(
        await invoices(
          new Request('http://app.test/api/invoices', {
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          }),
        ),
        true,
      ),
    );
    // In middleware: optional routes see null for no token, and a session cookie only when allowed.
    expect(
      await authenticateRequest(gatehouse, new Request('http://app.test/'), { optional: true }),
    ).toBeNull();
    const withCookie = new Request('http://app.test/', {
      headers: { cookie: `service_session=${tokens.live}` },
    });
    expect(await authenticateRequest(gatehouse, withCookie, { optional: true })).toBeNull();
    expect(await authenticateRequest(gatehouse, withCookie, { cookie: true })).toMatchObject({
      sub: tokens.userId,
    });
  });
});
