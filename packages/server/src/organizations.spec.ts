import 'reflect-metadata';
import express from 'express';
import Fastify from 'fastify';
import request from 'supertest';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import * as expressAdapter from './express';
import * as fastifyAdapter from './fastify';
import * as nestAdapter from './nest';
import * as nextAdapter from './next';
import {
  assertHas,
  GatehouseAuthError,
  has,
  type AccessTokenClaims,
  type Gatehouse,
  type OrganizationClaim,
} from './index';

const BILLING: OrganizationClaim = {
  id: 'org_1',
  slug: 'acme',
  role: 'billing',
  permissions: ['org:members:read', 'invoices:read'],
};

function claims(org?: OrganizationClaim): AccessTokenClaims {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: 'https://auth.example.test/v1/projects/prj_1',
    aud: 'prj_1',
    sub: 'usr_1',
    sid: 'ses_1',
    tid: 'ten_1',
    adm: false,
    auth_time: now,
    iat: now,
    exp: now + 900,
    ...(org ? { org } : {}),
  };
}

/** The tokens the adapters' tests present, by name: the claims a verified token of each carries. */
const TOKENS: Record<string, AccessTokenClaims> = {
  billing: claims(BILLING),
  member: claims({ ...BILLING, role: 'member', permissions: [] }),
  'no-org': claims(),
};

/** A verifier answering the named tokens (verification itself is gatehouse.spec.ts's subject). */
const gatehouse: Gatehouse = {
  issuer: 'https://auth.example.test/v1/projects/prj_1',
  projectId: 'prj_1',
  verifyAccessToken: async (token) => {
    const found = TOKENS[token];
    if (!found) throw new GatehouseAuthError('invalid_token', 'The access token is malformed.');
    return found;
  },
  verifyResourceToken: async () => {
    throw new Error('not used here');
  },
};

describe('has', () => {
  it('is true for a permission the active organization grants and the role the member has', () => {
    const c = claims(BILLING);
    expect(has(c, { permission: 'invoices:read' })).toBe(true);
    expect(has(c, { permission: 'org:members:read' })).toBe(true);
    expect(has(c, { role: 'billing' })).toBe(true);
  });

  it('is false for a permission or role the organization does not give, and for a token without an organization', () => {
    const c = claims(BILLING);
    expect(has(c, { permission: 'invoices:write' })).toBe(false);
    expect(has(c, { permission: 'org:delete' })).toBe(false);
    expect(has(c, { role: 'admin' })).toBe(false);
    expect(has(claims(), { permission: 'invoices:read' })).toBe(false);
    expect(has(claims(), { role: 'member' })).toBe(false);
    // Only what the claim lists: no prefix or wildcard matching.
    expect(
      has(claims({ ...BILLING, permissions: ['invoices:*'] }), { permission: 'invoices:read' }),
    ).toBe(false);
  });

  it('refuses a requirement naming neither a permission nor a role', () => {
    expect(() => has(claims(BILLING), {} as { role: string })).toThrow(
      new TypeError('has: give a permission or a role'),
    );
  });

  it('assertHas refuses with forbidden (403) and a detail naming what is missing', () => {
    const refusal = (c: AccessTokenClaims, requirement: Parameters<typeof assertHas>[1]) => {
      try {
        assertHas(c, requirement);
        return null;
      } catch (err) {
        expect(GatehouseAuthError.is(err)).toBe(true);
        const { code, status, message } = err as GatehouseAuthError;
        return [code, status, message];
      }
    };
    expect(refusal(claims(BILLING), { permission: 'invoices:read' })).toBeNull();
    expect(refusal(claims(BILLING), { permission: 'invoices:write' })).toEqual([
      'forbidden',
      403,
      'The active organization does not grant invoices:write.',
    ]);
    expect(refusal(claims(), { permission: 'invoices:read' })).toEqual([
      'forbidden',
      403,
      'This action needs an active organization that grants invoices:read.',
    ]);
    expect(refusal(claims(BILLING), { role: 'admin' })).toEqual([
      'forbidden',
      403,
      'This action needs the role admin in the active organization.',
    ]);
  });
});

/** One answer of an adapter, normalised for comparison. */
interface Answer {
  status: number;
  type: string | null;
  body: unknown;
}

const problem = (detail: string) => ({
  type: 'https://gatehouse.dev/problems/forbidden',
  title: 'Forbidden',
  status: 403,
  detail,
});

/**
 * What every adapter answers on `/invoices` (requirePermission('invoices:read')) and `/billing`
 * (requireRole('billing')): the handler's 200 for a member who has it, the 403 problem otherwise,
 * 401 without a token; `handled` counts the handler's runs.
 */
async function expectAnswers(
  ask: (path: string, token?: string) => Promise<Answer>,
  handled: () => number,
  problemType = 'application/problem+json',
): Promise<void> {
  const ok = { status: 200, type: 'application/json', body: { user_id: 'usr_1' } };
  const refused = (detail: string) => ({ status: 403, type: problemType, body: problem(detail) });
  expect(await ask('/invoices', 'billing')).toEqual(ok);
  expect(await ask('/billing', 'billing')).toEqual(ok);
  expect(handled()).toBe(2);
  expect(await ask('/invoices', 'member')).toEqual(
    refused('The active organization does not grant invoices:read.'),
  );
  expect(await ask('/invoices', 'no-org')).toEqual(
    refused('This action needs an active organization that grants invoices:read.'),
  );
  expect(await ask('/billing', 'member')).toEqual(
    refused('This action needs the role billing in the active organization.'),
  );
  const none = await ask('/invoices');
  expect([none.status, (none.body as { type: string }).type]).toEqual([
    401,
    'https://gatehouse.dev/problems/unauthenticated',
  ]);
  expect(handled()).toBe(2);
}

const mediaType = (header: string | null | undefined) => header?.split(';')[0] ?? null;

/** `ask` over HTTP, for a server (or an Express app) supertest can call. */
const over =
  (server: Parameters<typeof request>[0]) =>
  async (path: string, token?: string): Promise<Answer> => {
    const call = request(server).get(path);
    const res = await (token ? call.set('authorization', `Bearer ${token}`) : call);
    return {
      status: res.status,
      type: mediaType(res.headers['content-type']),
      body: JSON.parse(res.text),
    };
  };

describe('requirePermission and requireRole', () => {
  it('Express: after requireAuth, 403 forbidden problems or the handler; 401 when requireAuth did not run first', async () => {
    let handled = 0;
    const app = express();
    const handler = (req: express.Request & expressAdapter.WithAuth, res: express.Response) => {
      handled += 1;
      res.json({ user_id: req.auth!.sub });
    };
    const auth = expressAdapter.requireAuth(gatehouse);
    app.get('/invoices', auth, expressAdapter.requirePermission('invoices:read'), handler);
    app.get('/billing', auth, expressAdapter.requireRole('billing'), handler);
    app.get('/unauthenticated', expressAdapter.requirePermission('invoices:read'), handler);
    const ask = over(app);
    await expectAnswers(ask, () => handled);
    expect((await ask('/unauthenticated', 'billing')).status).toBe(401);
  });

  it('Fastify: hooks after requireAuth answer the problem before the handler runs', async () => {
    let handled = 0;
    const app = Fastify();
    app.decorateRequest('auth', null);
    // `request.auth` as requireAuth sets it (an application declares it on FastifyRequest).
    const handler = async (req: object) => {
      handled += 1;
      return { user_id: (req as { auth: AccessTokenClaims }).auth.sub };
    };
    const auth = fastifyAdapter.requireAuth(gatehouse);
    app.get(
      '/invoices',
      { onRequest: [auth, fastifyAdapter.requirePermission('invoices:read')] },
      handler,
    );
    app.get('/billing', { onRequest: [auth, fastifyAdapter.requireRole('billing')] }, handler);
    await app.ready();
    try {
      await expectAnswers(over(app.server), () => handled);
    } finally {
      await app.close();
    }
  });

  it('NestJS: guards after GatehouseGuard throw the problem as an HttpException (written as JSON by Nest, as GatehouseGuard’s)', async () => {
    let handled = 0;
    @Controller()
    @UseGuards(new nestAdapter.GatehouseGuard(gatehouse))
    class InvoicesController {
      @Get('invoices')
      @UseGuards(nestAdapter.requirePermission('invoices:read'))
      invoices(@nestAdapter.CurrentUser('sub') sub: string) {
        handled += 1;
        return { user_id: sub };
      }

      @Get('billing')
      @UseGuards(nestAdapter.requireRole('billing'))
      billing(@nestAdapter.CurrentUser('sub') sub: string) {
        handled += 1;
        return { user_id: sub };
      }
    }
    @Module({ controllers: [InvoicesController] })
    class InvoicesModule {}
    const app = await NestFactory.create(InvoicesModule, { logger: false });
    await app.init();
    try {
      await expectAnswers(over(app.getHttpServer()), () => handled, 'application/json');
    } finally {
      await app.close();
    }
  });

  it('Next.js (Fetch API): requirePermission and requireRole inside withAuth answer the problem response', async () => {
    let handled = 0;
    const handler = async (_request: Request, { auth }: { auth: AccessTokenClaims }) => {
      handled += 1;
      return Response.json({ user_id: auth.sub });
    };
    const routes: Record<string, (request: Request) => Promise<Response>> = {
      '/invoices': nextAdapter.withAuth(
        gatehouse,
        nextAdapter.requirePermission('invoices:read', handler),
      ),
      '/billing': nextAdapter.withAuth(gatehouse, nextAdapter.requireRole('billing', handler)),
    };
    await expectAnswers(
      async (path, token) => {
        const res = await routes[path](
          new Request(`http://app.test${path}`, {
            headers: token ? { authorization: `Bearer ${token}` } : {},
          }),
        );
        return {
          status: res.status,
          type: mediaType(res.headers.get('content-type')),
          body: await res.json(),
        };
      },
      () => handled,
    );
    // Without withAuth's claims: 401, never the handler.
    const bare = nextAdapter.requirePermission('invoices:read', handler);
    const res = await bare(new Request('http://app.test/'), {} as { auth: AccessTokenClaims });
    expect([res.status, handled]).toEqual([401, 2]);
  });
});
