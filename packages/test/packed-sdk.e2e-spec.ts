import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually, spawnApp, type AppProcess } from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the stack of the OIDC journeys: the runtime as a real process on a known URL, the control plane in process
import { OidcStack } from '../../apps/auth-runtime/test/support/oidc-stack';
import {
  commandIn,
  installPackedSdk,
  nodeIn,
  ROOT,
  SDK_PACKAGES,
  startServer,
  type Running,
} from './support/packed';

jest.setTimeout(120_000);

/**
 * The SDK packages as a user gets them: built, packed (`npm pack`) and installed into a project
 * outside the workspace, then used against the real stack: the Express example out of the
 * tarballs, with revocation-aware mode and a real webhook delivery from the worker.
 */
describe('SDK packages from their packed tarballs, outside the workspace', () => {
  const stack = new OidcStack();
  let worker: AppProcess;
  let consumer: string;
  let removeInstall = () => undefined as void;
  let projectId: string;
  let projectKey: string;
  let api: Running;
  let webhookSecret: string;

  const signUp = async (email: string) => {
    const res = await fetch(`${stack.authUrl}/v1/auth/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-project-key': projectKey,
        'x-forwarded-for': `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      },
      body: JSON.stringify({ email, password: 'a sturdy passphrase 42' }),
    });
    const body = (await res.json()) as {
      user: { id: string };
      session: { id: string; access_token: string };
    };
    if (res.status !== 201) throw new Error(`sign-up ${res.status} ${JSON.stringify(body)}`);
    return { userId: body.user.id, token: body.session.access_token };
  };
  const me = (token?: string) =>
    fetch(`${api.url}/api/me`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    ({ consumer, remove: removeInstall } = installPackedSdk([
      'express@^5.2.1',
      'fastify@^5.12.8',
      '@nestjs/common@^11',
      '@nestjs/core@^11',
      '@nestjs/platform-express@^11',
      'reflect-metadata',
      'rxjs',
      'next@16.4.6',
      'react@19.3.1',
      'react-dom@19.3.1',
    ]));
    // Sign-ups are rate-limited per address: the tests' own sign-ups name theirs (X-Forwarded-For from loopback).
    await stack.start({ TRUST_PROXY: 'loopback' });
    worker = await spawnApp('webhook-worker', { WEBHOOK_RETRY_SCHEDULE: '1s,2s' });
    const project = await stack.admin().post('/v1/admin/projects', {
      name: 'SDK consumer',
      allowed_origins: ['http://127.0.0.1:3000'],
      redirect_urls: ['http://127.0.0.1:3000/'],
    });
    expect(project.status).toBe(201);
    projectId = project.body.id as string;
    projectKey = project.body.publishable_key as string;
    copyFileSync(join(ROOT, 'examples/express-api/server.mjs'), join(consumer, 'server.mjs'));
  });

  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await stack.stop();
    removeInstall();
  });

  it('every entry point of every package loads with require() and import, and its types resolve for CommonJS and ESM consumers', async () => {
    const entries = [
      '@gatehouse/server',
      '@gatehouse/server/express',
      '@gatehouse/server/nest',
      '@gatehouse/server/next',
      '@gatehouse/server/fastify',
      '@gatehouse/js',
      '@gatehouse/react',
      '@gatehouse/admin',
    ];
    writeFileSync(
      join(consumer, 'load.cjs'),
      `require('reflect-metadata');\nconst out = {};\nfor (const e of ${JSON.stringify(entries)}) out[e] = Object.keys(require(e)).sort();\nconsole.log(JSON.stringify(out));\n`,
    );
    writeFileSync(
      join(consumer, 'load.mjs'),
      `import 'reflect-metadata';\nconst out = {};\nfor (const e of ${JSON.stringify(entries)}) out[e] = Object.keys(await import(e)).filter((k) => k !== 'default').sort();\nconsole.log(JSON.stringify(out));\n`,
    );
    const cjs = JSON.parse(await nodeIn(consumer, 'load.cjs')) as Record<string, string[]>;
    const esm = JSON.parse(await nodeIn(consumer, 'load.mjs')) as Record<string, string[]>;
    expect(esm).toEqual(cjs);
    expect(cjs['@gatehouse/server']).toEqual(
      expect.arrayContaining([
        'createGatehouse',
        'verifyWebhook',
        'GatehouseAuthError',
        'assertRecentAuth',
      ]),
    );
    expect(cjs['@gatehouse/server']).toEqual(expect.arrayContaining(['has', 'assertHas']));
    expect(cjs['@gatehouse/server/express']).toEqual([
      'requireAuth',
      'requirePermission',
      'requireRecentAuth',
      'requireRole',
    ]);
    expect(cjs['@gatehouse/server/nest']).toEqual([
      'CurrentUser',
      'GatehouseGuard',
      'requirePermission',
      'requireRole',
    ]);
    expect(cjs['@gatehouse/js']).toEqual(
      expect.arrayContaining([
        'createGatehouse',
        'GatehouseClient',
        'GatehouseError',
        'hasPermission',
      ]),
    );
    expect(cjs['@gatehouse/react']).toEqual(
      expect.arrayContaining([
        'GatehouseProvider',
        'OrganizationListStore',
        'OrganizationSwitcher',
        'useOrganization',
        'useOrganizationList',
        'useSession',
      ]),
    );
    for (const e of entries) expect(cjs[e].length).toBeGreaterThan(0);

    // The declarations, as TypeScript resolves them through each package's exports map (node16: .d.cts for require, .d.ts for import).
    const code = `import { createGatehouse, verifyWebhook, type AccessTokenClaims } from '@gatehouse/server';
import { requireAuth } from '@gatehouse/server/express';
import { GatehouseGuard } from '@gatehouse/server/nest';
import { withAuth } from '@gatehouse/server/next';
import { requireAuth as fastifyAuth } from '@gatehouse/server/fastify';
import * as js from '@gatehouse/js';
import * as react from '@gatehouse/react';
import * as admin from '@gatehouse/admin';
const gh = createGatehouse({ authUrl: 'http://localhost:4000', projectId: 'p', projectKey: 'pk' });
export const claims: Promise<AccessTokenClaims> = gh.verifyAccessToken('t');
export const sub: Promise<string> = claims.then((c) => c.sub);
export const uses = [verifyWebhook, requireAuth(gh), new GatehouseGuard(gh), withAuth(gh, async () => new Response()), fastifyAuth(gh), js, react, admin];
`;
    writeFileSync(join(consumer, 'types-esm.mts'), code);
    writeFileSync(join(consumer, 'types-cjs.cts'), code);
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'node16',
        '--moduleResolution',
        'node16',
        '--target',
        'es2022',
        '--lib',
        'es2022,dom',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        'types-esm.mts',
        'types-cjs.cts',
      ],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('each package ships its README and every file its exports map names, and no source or tests', () => {
    for (const name of SDK_PACKAGES) {
      const dir = join(consumer, 'node_modules/@gatehouse', name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        version: string;
        exports: Record<string, unknown>;
      };
      expect(manifest.version).toMatch(/^0\.\d+\.\d+$/);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/## Quick start/i);
      const listed = spawnSync('find', ['.', '-type', 'f'], { cwd: dir, encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      expect(listed.filter((f) => /\/src\/|\.spec\.|tsup\.config|project\.json/.test(f))).toEqual(
        [],
      );
      // Every file the exports map names exists.
      const targets: string[] = [];
      const walk = (node: unknown): void => {
        if (typeof node === 'string') targets.push(node);
        else if (node && typeof node === 'object') Object.values(node).forEach(walk);
      };
      walk(manifest.exports);
      expect(targets.length).toBeGreaterThan(2);
      for (const t of targets) expect(listed).toContain(t);
    }
  });

  it('the Express example accepts a token from a real sign-up and refuses none, a malformed, a foreign and a tampered one', async () => {
    api = await startServer(consumer, 'server.mjs', {
      PORT: '0',
      GATEHOUSE_AUTH_URL: stack.authUrl,
      GATEHOUSE_PROJECT_ID: projectId,
      GATEHOUSE_PROJECT_KEY: projectKey,
    });
    const { userId, token } = await signUp('ada@example.com');
    const ok = await me(token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ user_id: userId, admin: false });

    const none = await me();
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toMatchObject({
      type: 'https://gatehouse.dev/problems/unauthenticated',
      status: 401,
    });

    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, adm: true })).toString('base64url')}.${s}`;
    // A token of the tenant's console project: signed by Gatehouse, but for another audience and issuer.
    const foreign = (
      await stack.signIn(
        stack.tenant.consoleKey,
        stack.tenant.adminEmail,
        stack.tenant.adminPassword,
      )
    ).accessToken;
    for (const bad of ['garbage', tampered, foreign]) {
      const res = await me(bad);
      expect([bad.slice(0, 12), res.status, res.headers.get('www-authenticate')]).toEqual([
        bad.slice(0, 12),
        401,
        'Bearer error="invalid_token"',
      ]);
    }
  });

  it('in revocation-aware mode a signed-out session is refused once the documented cache time has passed', async () => {
    await api.stop();
    api = await startServer(consumer, 'server.mjs', {
      PORT: '0',
      GATEHOUSE_AUTH_URL: stack.authUrl,
      GATEHOUSE_PROJECT_ID: projectId,
      GATEHOUSE_PROJECT_KEY: projectKey,
      GATEHOUSE_REVOCATION: '1',
      GATEHOUSE_REVOCATION_CACHE_SECONDS: '1',
    });
    const { token } = await signUp('grace@example.com');
    expect((await me(token)).status).toBe(200);
    const out = await fetch(`${stack.authUrl}/v1/auth/sign-out`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-service-project-key': projectKey },
    });
    expect(out.status).toBe(204);
    // Still within its signature's lifetime; refused as soon as the cached answer (1 s) expires.
    let refused: Response | null = null;
    await eventually(async () => {
      const res = await me(token);
      refused = res.status === 401 ? res : null;
      return refused !== null;
    }, 5_000);
    expect(await refused!.json()).toMatchObject({
      status: 401,
      detail: 'The session of this access token has ended.',
    });
  });

  it('@gatehouse/js from Node (ESM): signs up, renews through the refresh cookie it keeps in memory, lists sessions, organizations (none; creating one refused by default; none made active), signs out', async () => {
    writeFileSync(
      join(consumer, 'js-node.mjs'),
      `import { createGatehouse, GatehouseError } from '@gatehouse/js';
const env = process.env;
// A margin longer than the token's life: every call renews first.
const gh = createGatehouse({ authUrl: env.AUTH_URL, projectKey: env.PROJECT_KEY, renewBeforeSeconds: 100000 });
const signedUp = await gh.signUp({ email: 'node@example.com', password: 'a sturdy passphrase 42' });
const first = gh.getState();
const firstToken = first.status === 'signed-in' ? (await gh.getAccessToken()) : null;
const second = await gh.getAccessToken();
const me = await gh.me();
const sessions = await gh.listSessions();
const organizations = await gh.listOrganizations();
const create = await gh.createOrganization({ name: 'Acme' }).catch((e) => e.slug);
const active = await gh.setActiveOrganization(null);
await gh.signOut();
let afterSignOut = 'none';
try { await gh.listSessions(); } catch (err) { afterSignOut = err instanceof GatehouseError ? err.slug : String(err); }
const wrong = await gh.signIn({ identifier: 'node@example.com', password: 'not the password' }).catch((e) => e);
console.log(JSON.stringify({ signedUp: signedUp.status, first, renewed: firstToken !== second, me: me && me.user.email, sessions: sessions.length, organizations, create, active, state: gh.getState().status, afterSignOut, wrong: [wrong.name, wrong.slug, wrong.status] }));
`,
    );
    const out = JSON.parse(
      await nodeIn(consumer, 'js-node.mjs', { AUTH_URL: stack.authUrl, PROJECT_KEY: projectKey }),
    ) as Record<string, unknown>;
    expect(out).toEqual({
      signedUp: 'signed-in',
      first: {
        status: 'signed-in',
        user: { id: expect.any(String), email: 'node@example.com' },
        sessionId: expect.any(String),
        organization: null,
      },
      renewed: true,
      me: 'node@example.com',
      sessions: 1,
      organizations: [],
      create: 'forbidden',
      active: null,
      state: 'signed-out',
      afterSignOut: 'unauthenticated',
      wrong: ['GatehouseError', 'invalid-credentials', 401],
    });
  });

  it('@gatehouse/admin from Node (CommonJS): an administrator session and every user of the project through the async iterator', async () => {
    await stack.cp.app.listen(0, '127.0.0.1');
    const controlPlane = (await stack.cp.app.getUrl()).replace('[::1]', '127.0.0.1');
    writeFileSync(
      join(consumer, 'admin-node.cjs'),
      `const { adminSession, createAdminClient, GatehouseError } = require('@gatehouse/admin');
const env = process.env;
(async () => {
  const admin = createAdminClient({ baseUrl: env.CP_URL, token: adminSession({ authUrl: env.AUTH_URL, projectKey: env.CONSOLE_KEY, email: env.EMAIL, password: env.PASSWORD }).token, pageSize: 2 });
  const emails = [];
  for await (const user of admin.paginate('/v1/admin/users', { query: { project_id: env.PROJECT_ID } })) emails.push(user.email);
  const missing = await admin.GET('/v1/admin/projects/{id}', { params: { path: { id: 'prj_missing' } } }).catch((e) => e);
  console.log(JSON.stringify({ emails: emails.sort(), missing: [missing instanceof GatehouseError, missing.slug] }));
})().catch((err) => { console.error(err); process.exit(1); });
`,
    );
    const out = JSON.parse(
      await nodeIn(consumer, 'admin-node.cjs', {
        CP_URL: controlPlane,
        AUTH_URL: stack.authUrl,
        CONSOLE_KEY: stack.tenant.consoleKey,
        EMAIL: stack.tenant.adminEmail,
        PASSWORD: stack.tenant.adminPassword,
        PROJECT_ID: projectId,
      }),
    ) as Record<string, unknown>;
    expect(out).toEqual({
      emails: ['ada@example.com', 'grace@example.com', 'node@example.com'],
      missing: [true, 'not-found'],
    });
  });

  it("the Express example's /api/invoices needs an active organization granting invoices:read: 403 problems without one or without the permission, 200 once the member's role grants it", async () => {
    // (After the admin client's test, which lists every user of the project: this one signs one up.)
    const { userId, token } = await signUp('invoices@example.com');
    const invoices = async (bearer: string) => {
      const res = await fetch(`${api.url}/api/invoices`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      return [res.status, res.headers.get('content-type'), await res.json()];
    };
    const forbidden = (detail: string) => [
      403,
      expect.stringMatching(/^application\/problem\+json/),
      { type: 'https://gatehouse.dev/problems/forbidden', title: 'Forbidden', status: 403, detail },
    ];
    expect(await invoices(token)).toEqual(
      forbidden('This action needs an active organization that grants invoices:read.'),
    );

    const admin = stack.admin();
    const created = [
      await admin.post(`/v1/admin/projects/${projectId}/permissions`, { key: 'invoices:read' }),
      await admin.post(`/v1/admin/projects/${projectId}/roles`, {
        key: 'billing',
        name: 'Billing',
        permissions: ['invoices:read'],
      }),
    ];
    const org = await admin.post('/v1/admin/organizations', {
      project_id: projectId,
      name: 'Acme',
      slug: 'acme',
    });
    const organizationId = org.body.id as string;
    created.push(
      org,
      await admin.post(`/v1/admin/organizations/${organizationId}/members`, {
        user_id: userId,
        role: 'member',
      }),
    );
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const activate = async () => {
      const res = await fetch(`${stack.authUrl}/v1/auth/organizations/active`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-service-project-key': projectKey,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ organization_id: organizationId }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    // A member: the organization is active, but the built-in member role grants nothing.
    const memberToken = await activate();
    expect(await invoices(memberToken)).toEqual(
      forbidden('The active organization does not grant invoices:read.'),
    );
    const promoted = await admin.patch(
      `/v1/admin/organizations/${organizationId}/members/${userId}`,
      { role: 'billing' },
    );
    expect(promoted.status).toBe(200);
    const billingToken = await activate();
    expect(await invoices(billingToken)).toEqual([
      200,
      expect.stringMatching(/^application\/json/),
      { organization_id: organizationId, invoices: [] },
    ]);

    // The same guard in Fastify, NestJS and Next.js route handlers, from the packed tarball, each
    // framework as its documentation wires it: [status, problem slug or organization id] for no
    // token, the member's token (no permission) and the billing member's.
    writeFileSync(
      join(consumer, 'guards.mjs'),
      `import 'reflect-metadata';
import Fastify from 'fastify';
import { Controller, Get, Module, Req, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createGatehouse } from '@gatehouse/server';
import * as fastifyAuth from '@gatehouse/server/fastify';
import * as nestAuth from '@gatehouse/server/nest';
import * as nextAuth from '@gatehouse/server/next';
const env = process.env;
const gh = createGatehouse({ authUrl: env.AUTH_URL, projectId: env.PROJECT_ID, projectKey: env.PROJECT_KEY });
const tokens = [undefined, env.MEMBER_TOKEN, env.BILLING_TOKEN];
const headers = (t) => (t ? { authorization: 'Bearer ' + t } : {});
const shown = (status, body) => [status, status === 200 ? body.organization_id : body.type.split('/').pop()];

const fastify = Fastify();
fastify.decorateRequest('auth', null);
fastify.get('/invoices', { onRequest: fastifyAuth.requireAuth(gh), preHandler: fastifyAuth.requirePermission('invoices:read') },
  async (request) => ({ organization_id: request.auth.org.id }));
const viaFastify = [];
for (const t of tokens) {
  const res = await fastify.inject({ method: 'GET', url: '/invoices', headers: headers(t) });
  viaFastify.push(shown(res.statusCode, res.json()));
}
await fastify.close();

class Invoices { list(req) { return { organization_id: req.auth.org.id }; } }
Reflect.decorate([Get(), UseGuards(new nestAuth.GatehouseGuard(gh), nestAuth.requirePermission('invoices:read'))],
  Invoices.prototype, 'list', Object.getOwnPropertyDescriptor(Invoices.prototype, 'list'));
Req()(Invoices.prototype, 'list', 0);
Reflect.decorate([Controller('invoices')], Invoices);
class AppModule {}
Reflect.decorate([Module({ controllers: [Invoices] })], AppModule);
const nest = await NestFactory.create(AppModule, { logger: false });
await nest.listen(0, '127.0.0.1');
const nestUrl = (await nest.getUrl()).replace('[::1]', '127.0.0.1');
const viaNest = [];
for (const t of tokens) {
  const res = await fetch(nestUrl + '/invoices', { headers: headers(t) });
  viaNest.push(shown(res.status, await res.json()));
}
await nest.close();

const GET = nextAuth.withAuth(gh, nextAuth.requirePermission('invoices:read', async (request, { auth }) => Response.json({ organization_id: auth.org.id })));
const viaNext = [];
for (const t of tokens) {
  const res = await GET(new Request('http://app.test/api/invoices', { headers: headers(t) }), {});
  viaNext.push(shown(res.status, await res.json()));
}
console.log(JSON.stringify({ viaFastify, viaNest, viaNext }));
`,
    );
    const guarded = JSON.parse(
      await nodeIn(consumer, 'guards.mjs', {
        AUTH_URL: stack.authUrl,
        PROJECT_ID: projectId,
        PROJECT_KEY: projectKey,
        MEMBER_TOKEN: memberToken,
        BILLING_TOKEN: billingToken,
      }),
    ) as Record<string, unknown>;
    const expected = [
      [401, 'unauthenticated'],
      [403, 'forbidden'],
      [200, organizationId],
    ];
    expect(guarded).toEqual({ viaFastify: expected, viaNest: expected, viaNext: expected });
  });

  it('the Express example verifies a real delivery from the webhook worker and refuses a forged one', async () => {
    const hook = await stack.admin().post('/v1/admin/webhooks', {
      url: `${api.url}/webhooks/gatehouse`,
      events: ['user.created'],
    });
    expect(hook.status).toBe(201);
    webhookSecret = hook.body.secret as string;
    await api.stop();
    api = await startServer(consumer, 'server.mjs', {
      PORT: new URL(api.url).port,
      GATEHOUSE_AUTH_URL: stack.authUrl,
      GATEHOUSE_PROJECT_ID: projectId,
      GATEHOUSE_PROJECT_KEY: projectKey,
      GATEHOUSE_WEBHOOK_SECRET: webhookSecret,
    });
    const { userId } = await signUp('linus@example.com');
    await eventually(async () => api.output().includes('webhook verified: user.created'), 30_000);

    // Signed with another secret (by the reference library): 400, and nothing acted on.
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'user.deleted',
      timestamp: new Date().toISOString(),
      tenant_id: 't',
      project_id: projectId,
      data: { user: { id: userId } },
    });
    const at = new Date();
    const signature = new Webhook(
      Buffer.from('not the endpoint secret, 32 byte').toString('base64'),
    ).sign('msg_forged', at, body);
    const forged = await fetch(`${api.url}/webhooks/gatehouse`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
    });
    expect(forged.status).toBe(400);
    expect(api.output()).not.toContain('webhook verified: user.deleted');
  });

  it('@gatehouse/server in Bun, Deno and Vercel’s edge runtime (Web Crypto and fetch only): a real token verified with keys fetched from jwks.json, a tampered one refused, a signed-out session refused in revocation-aware mode, withAuth answering Requests, a webhook signature checked', async () => {
    const live = await signUp('bun-deno-edge@example.com');
    const ended = await signUp('ended@example.com');
    const out = await fetch(`${stack.authUrl}/v1/auth/sign-out`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ended.token}`, 'x-service-project-key': projectKey },
    });
    expect(out.status).toBe(204);
    const [h, p, s] = live.token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), adm: true })).toString('base64url')}.${s}`;
    // A delivery signed by the Standard Webhooks reference library, and the same body under another key.
    const secret = `whsec_${Buffer.from('the endpoint secret of 32 bytes!').toString('base64')}`;
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'user.created',
      timestamp: new Date().toISOString(),
      tenant_id: 't',
      project_id: projectId,
      data: { user: { id: live.userId } },
    });
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_1', at, body),
    };
    const forged = new Webhook(
      Buffer.from('not the endpoint secret, 32 byte').toString('base64'),
    ).sign('msg_1', at, body);
    const config = {
      authUrl: stack.authUrl,
      projectId,
      projectKey,
      live: live.token,
      ended: ended.token,
      tampered,
      webhook: { secret, body, headers, forged },
    };

    // One check, written once for every runtime: only Web APIs and the package's ESM entry points.
    writeFileSync(
      join(consumer, 'runtime-check.mjs'),
      `import { createGatehouse, GatehouseAuthError, verifyWebhook } from '@gatehouse/server';
import { withAuth } from '@gatehouse/server/next';
export async function check(C) {
  const options = { authUrl: C.authUrl, projectId: C.projectId, projectKey: C.projectKey };
  const gh = createGatehouse(options);
  const aware = createGatehouse({ ...options, revocation: { cacheSeconds: 1 } });
  const outcome = (p) => p.then(() => 'accepted', (e) => (GatehouseAuthError.is(e) ? e.code : 'thrown: ' + e));
  const claims = await gh.verifyAccessToken(C.live);
  const route = withAuth(gh, async (request, { auth }) => new Response(JSON.stringify({ sub: auth.sub }), { headers: { 'content-type': 'application/json' } }));
  const ok = await route(new Request('http://api.test/me', { headers: { authorization: 'Bearer ' + C.live } }));
  const none = await route(new Request('http://api.test/me'));
  const hook = await verifyWebhook(C.webhook.headers, C.webhook.body, C.webhook.secret);
  const forged = await verifyWebhook({ ...C.webhook.headers, 'webhook-signature': C.webhook.forged }, C.webhook.body, C.webhook.secret).then(() => 'accepted', (e) => e.name);
  return {
    runtime: typeof Bun !== 'undefined' ? 'bun' : typeof Deno !== 'undefined' ? 'deno' : typeof EdgeRuntime === 'string' ? 'edge' : 'other',
    sub: claims.sub,
    tampered: await outcome(gh.verifyAccessToken(C.tampered)),
    endedBySignature: await outcome(gh.verifyAccessToken(C.ended)),
    endedRevocationAware: await outcome(aware.verifyAccessToken(C.ended)),
    liveRevocationAware: await outcome(aware.verifyAccessToken(C.live)),
    route: [ok.status, await ok.json()],
    none: [none.status, none.headers.get('www-authenticate')],
    webhook: hook.type,
    forged,
  };
}
`,
    );
    writeFileSync(
      join(consumer, 'runtime-main.mjs'),
      `import { check } from './runtime-check.mjs';\nconsole.log(JSON.stringify(await check(${JSON.stringify(config)})));\n`,
    );
    // The edge runtime evaluates one script (no modules, no require): bundled as an edge deployment is, then run in
    // edge-runtime's sandbox, which has fetch, Request, Response and Web Crypto but nothing of Node.
    writeFileSync(
      join(consumer, 'edge-entry.mjs'),
      `import { check } from './runtime-check.mjs';\nglobalThis.__result = check(${JSON.stringify(config)}).then((r) => JSON.stringify(r));\n`,
    );
    writeFileSync(
      join(consumer, 'edge.cjs'),
      `const { buildSync } = require(${JSON.stringify(join(ROOT, 'node_modules/esbuild'))});
const { EdgeRuntime } = require(${JSON.stringify(join(ROOT, 'node_modules/edge-runtime'))});
const bundle = buildSync({ entryPoints: ['edge-entry.mjs'], bundle: true, write: false, format: 'iife', platform: 'browser', conditions: ['edge-light', 'worker'], target: 'es2022', logLevel: 'silent' });
const runtime = new EdgeRuntime({ initialCode: bundle.outputFiles[0].text });
(async () => {
  const node = await runtime.evaluate('[typeof process, typeof require, typeof Buffer].join()');
  console.log(JSON.stringify({ node, result: JSON.parse(await runtime.evaluate('globalThis.__result')) }));
})().catch((err) => { console.error(err); process.exit(1); });
`,
    );
    mkdirSync(join(consumer, '.deno'), { recursive: true });
    const expected = {
      sub: live.userId,
      tampered: 'invalid_token',
      // Its signature stays good until exp; only the revocation-aware mode asks Gatehouse.
      endedBySignature: 'accepted',
      endedRevocationAware: 'revoked_token',
      liveRevocationAware: 'accepted',
      route: [200, { sub: live.userId }],
      none: [401, 'Bearer'],
      webhook: 'user.created',
      forged: 'WebhookVerificationError',
    };
    const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
    const bun = await commandIn(consumer, bin('bun'), ['runtime-main.mjs'], { HOME: consumer });
    const deno = await commandIn(
      consumer,
      bin('deno'),
      [
        'run',
        '--quiet',
        '--no-prompt',
        '--allow-net',
        '--allow-read',
        '--allow-env',
        'runtime-main.mjs',
      ],
      { HOME: consumer, DENO_DIR: join(consumer, '.deno'), DENO_NO_UPDATE_CHECK: '1' },
    );
    const edge = JSON.parse(await nodeIn(consumer, 'edge.cjs')) as {
      node: string;
      result: unknown;
    };
    expect({ bun: JSON.parse(bun), deno: JSON.parse(deno), edge: edge.result }).toEqual({
      bun: { runtime: 'bun', ...expected },
      deno: { runtime: 'deno', ...expected },
      edge: { runtime: 'edge', ...expected },
    });
    // The sandbox really had nothing of Node.
    expect(edge.node).toBe('undefined,undefined,undefined');
  });

  it('a real Next.js 16 app built and started from the tarball: middleware.ts in the edge runtime refuses a missing, a tampered and a signed-out token before any route, and a withAuth route handler answers with the verified user', async () => {
    const live = await signUp('next@example.com');
    const ended = await signUp('next-ended@example.com');
    expect(
      (
        await fetch(`${stack.authUrl}/v1/auth/sign-out`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ended.token}`, 'x-service-project-key': projectKey },
        })
      ).status,
    ).toBe(204);
    const app = join(consumer, 'next-app');
    mkdirSync(join(app, 'app/api/me'), { recursive: true });
    // Its packages are the consumer project's (node_modules one level up), as in a monorepo.
    writeFileSync(
      join(app, 'next.config.mjs'),
      `export default { turbopack: { root: ${JSON.stringify(consumer)} } };\n`,
    );
    writeFileSync(
      join(app, 'gatehouse.js'),
      `import { createGatehouse } from '@gatehouse/server';\nexport const gatehouse = createGatehouse(${JSON.stringify({ authUrl: stack.authUrl, projectId, projectKey })});\nexport const aware = createGatehouse(${JSON.stringify({ authUrl: stack.authUrl, projectId, projectKey, revocation: { cacheSeconds: 1 } })});\n`,
    );
    writeFileSync(
      join(app, 'app/layout.js'),
      'export default function RootLayout({ children }) { return <html><body>{children}</body></html>; }\n',
    );
    // The docs' two uses: authenticateRequest in middleware.ts (revocation-aware), withAuth on the route handler.
    writeFileSync(
      join(app, 'middleware.js'),
      `import { NextResponse } from 'next/server';
import { authenticateRequest, refusalResponse } from '@gatehouse/server/next';
import { GatehouseAuthError } from '@gatehouse/server';
import { aware } from './gatehouse';
export async function middleware(request) {
  try {
    const claims = await authenticateRequest(aware, request);
    const headers = new Headers(request.headers);
    headers.set('x-middleware', [claims.sub, typeof EdgeRuntime === 'string' ? 'edge' : 'node'].join(' '));
    return NextResponse.next({ request: { headers } });
  } catch (err) {
    if (GatehouseAuthError.is(err)) return refusalResponse(err);
    throw err;
  }
}
export const config = { matcher: '/api/:path*' };
`,
    );
    writeFileSync(
      join(app, 'app/api/me/route.js'),
      `import { withAuth } from '@gatehouse/server/next';
import { gatehouse } from '../../../gatehouse';
export const GET = withAuth(gatehouse, async (request, { auth }) => Response.json({ sub: auth.sub, middleware: request.headers.get('x-middleware') }));
`,
    );
    const next = join(consumer, 'node_modules/next/dist/bin/next');
    const env = { NEXT_TELEMETRY_DISABLED: '1', HOME: consumer };
    await commandIn(app, process.execPath, [next, 'build'], env);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const server = spawn(process.execPath, [next, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: app,
      // eslint-disable-next-line no-restricted-properties -- the server runs with PATH only and what it is given
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    try {
      const url = `http://127.0.0.1:${port}/api/me`;
      const call = (token?: string) =>
        fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
      await eventually(async () => (await call().catch(() => null)) !== null, 30_000);
      const ok = await call(live.token);
      expect([ok.status, await ok.json()]).toEqual([
        200,
        { sub: live.userId, middleware: `${live.userId} edge` },
      ]);
      const [h, p, sig] = live.token.split('.');
      const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: ended.userId })).toString('base64url')}.${sig}`;
      const refused: unknown[] = [];
      for (const token of [undefined, tampered, ended.token]) {
        const res = await call(token);
        refused.push([
          res.status,
          res.headers.get('content-type'),
          res.headers.get('www-authenticate'),
          await res.json(),
        ]);
      }
      const problem = (detail: string) => ({
        type: 'https://gatehouse.dev/problems/unauthenticated',
        title: 'Unauthenticated',
        status: 401,
        detail,
      });
      expect(refused).toEqual([
        [401, 'application/problem+json', 'Bearer', problem('No access token was presented.')],
        [
          401,
          'application/problem+json',
          'Bearer error="invalid_token"',
          problem('The access token is not valid for this project.'),
        ],
        // Its signature is good: the middleware's revocation-aware check refused it.
        [
          401,
          'application/problem+json',
          'Bearer error="invalid_token"',
          problem('The session of this access token has ended.'),
        ],
      ]);
    } finally {
      server.kill('SIGTERM');
    }
  });
});
