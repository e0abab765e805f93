import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import {
  cookiesOf,
  expectProblem,
  HttpReceiver,
  linkIn,
  nextIp,
  SmtpSink,
  TEST_ENCRYPTION_KEY,
} from '@gatehouse/testing';

const ROOT = join(__dirname, '..', '..');

interface Running {
  child: ChildProcess;
  out: () => string;
  runtime: string;
  controlPlane: string;
  worker: string;
  exited: Promise<number | null>;
}

/** `npm start` in standalone mode, as a real process, on ephemeral ports and a throwaway data dir. */
async function startStandalone(dataDir: string, env: Record<string, string>): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/tools/scripts/start.js')],
    {
      cwd: ROOT,
      env: {
        // eslint-disable-next-line no-restricted-properties -- the child needs PATH
        PATH: process.env.PATH ?? '',
        GATEHOUSE_STANDALONE: '1',
        GATEHOUSE_DATA_DIR: dataDir,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        HOST: '127.0.0.1',
        AUTH_RUNTIME_PORT: '0',
        CONTROL_PLANE_PORT: '0',
        WEBHOOK_WORKER_PORT: '0',
        AUTH_RUNTIME_METRICS_PORT: '0',
        CONTROL_PLANE_METRICS_PORT: '0',
        WEBHOOK_WORKER_METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        BCRYPT_COST: '10',
        TRUST_PROXY: 'loopback',
        PUBLIC_AUTH_URL: 'http://auth.test',
        BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
        BOOTSTRAP_ADMIN_PASSWORD: 'owner password 123',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const until = Date.now() + 90_000;
  while (!out.includes('ready. Press Ctrl-C')) {
    if (Date.now() > until || child.exitCode !== null)
      throw new Error(`standalone did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const ports = [...out.matchAll(/gatehouse: listening on port (\d+)/g)].map(
    (m) => `http://127.0.0.1:${m[1]}`,
  );
  return {
    child,
    out: () => out,
    runtime: ports[0],
    controlPlane: ports[1],
    worker: ports[2],
    exited,
  };
}

describe('standalone mode: the core flows with embedded PostgreSQL and in-process cache and queues', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-standalone-'));
  const smtp = new SmtpSink();
  const hooks = new HttpReceiver();
  let gh: Running;
  let consoleKey: string;
  let projectKey: string;
  let adminToken: string;
  const rt = () => request(gh.runtime);
  const signIn = (identifier: string, password: string, ip = nextIp()) =>
    rt()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', ip)
      .send({ identifier, password });

  beforeAll(async () => {
    await smtp.start();
    await hooks.start();
    gh = await startStandalone(dataDir, { SMTP_URL: smtp.url, WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
    expect(gh.out()).toContain('running standalone');
    consoleKey = (
      JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { project_key: string }
    ).project_key;
    const admin = await rt()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', consoleKey)
      .send({ identifier: 'owner@example.com', password: 'owner password 123' });
    expect(admin.status).toBe(200);
    adminToken = admin.body.session.access_token;
    const project = await request(gh.controlPlane)
      .post('/v1/admin/projects')
      .set('Authorization', `Bearer ${adminToken}`)
      .send({
        name: 'Standalone App',
        allowed_origins: ['https://app.example.com'],
        redirect_urls: ['https://app.example.com/callback'],
        settings: { default_redirect_url: 'https://app.example.com/callback' },
      });
    expect(project.status).toBe(201);
    projectKey = project.body.publishable_key;
  });
  afterAll(async () => {
    gh?.child.kill('SIGKILL');
    await smtp.stop();
    await hooks.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports the embedded database and the in-process cache as up on every app', async () => {
    for (const base of [gh.runtime, gh.controlPlane, gh.worker]) {
      const res = await request(base).get('/health/ready');
      expect(res.status).toBe(200);
      expect(res.body.details).toEqual({ database: { status: 'up' }, cache: { status: 'up' } });
    }
  });

  it('signs up (delivering a signed user.created webhook), signs in, refreshes and revokes', async () => {
    const created = await request(gh.controlPlane)
      .post('/v1/admin/webhooks')
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ url: `${hooks.url}/hook`, events: ['user.created'] });
    expect(created.status).toBe(201);
    const up = await rt()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'solo@example.com', password: 'a sturdy passphrase 42' });
    expect(up.status).toBe(201);
    const delivery = await hooks.waitFor((r) => r.path === '/hook', 20_000);
    const event = new Webhook(created.body.secret as string).verify(delivery.body, {
      'webhook-id': delivery.headers['webhook-id'] as string,
      'webhook-timestamp': delivery.headers['webhook-timestamp'] as string,
      'webhook-signature': delivery.headers['webhook-signature'] as string,
    }) as { type: string; data: { user: { id: string } } };
    expect(event.type).toBe('user.created');
    expect(event.data.user.id).toBe(up.body.user.id);

    const signedIn = await signIn('solo@example.com', 'a sturdy passphrase 42');
    expect(signedIn.status).toBe(200);
    const refresh = await rt()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', projectKey)
      .set('Cookie', `service_refresh_token=${cookiesOf(signedIn).service_refresh_token.value}`);
    expect(refresh.status).toBe(200);
    expect(refresh.body.expires_in).toBe(900);
    const out = await rt()
      .post('/v1/auth/sign-out')
      .set('X-Service-Project-Key', projectKey)
      .set('Authorization', `Bearer ${refresh.body.access_token}`);
    expect(out.status).toBe(204);
    expectProblem(
      await rt()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', projectKey)
        .set('Authorization', `Bearer ${refresh.body.access_token}`),
      401,
      'unauthenticated',
    );
  });

  it('edits a project and signs a user in to an OpenID Connect client (provider records in the in-process cache)', async () => {
    const admin = (method: 'patch' | 'post', path: string, body: object) =>
      request(gh.controlPlane)
        [method](path)
        .set('Authorization', `Bearer ${adminToken}`)
        .send(body);
    const projects = await request(gh.controlPlane)
      .get('/v1/admin/projects')
      .set('Authorization', `Bearer ${adminToken}`);
    const project = (projects.body.projects as { id: string; publishable_key: string }[]).find(
      (p) => p.publishable_key === projectKey,
    )!;
    // A PATCH reads the project's API keys inside its transaction: on the one embedded connection, not a second one that would wait forever.
    const patched = await admin('patch', `/v1/admin/projects/${project.id}`, {
      settings: { oidc: { enabled: true } },
    });
    expect(patched.status).toBe(200);
    const rp = await admin('post', `/v1/admin/projects/${project.id}/oauth-clients`, {
      name: 'RP',
      redirect_uris: ['https://app.example.com/callback'],
      first_party: true,
    });
    expect(rp.status).toBe(201);
    await rt()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'oidc@example.com', password: 'a sturdy passphrase 42' });

    // The browser: follow the provider's redirects on the runtime (its public URL here is http://auth.test), keeping cookies.
    const jar = new Map<string, string>();
    const visit = async (url: string) => {
      const target = new URL(url);
      const res = await request(gh.runtime)
        .get(target.pathname + target.search)
        .set('Cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
      for (const line of (res.headers['set-cookie'] as unknown as string[] | undefined) ?? []) {
        const [pair] = line.split(';');
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return res.headers.location as string | undefined;
    };
    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      client_id: rp.body.client_id,
      response_type: 'code',
      redirect_uri: 'https://app.example.com/callback',
      scope: 'openid email',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    let location = await visit(`http://auth.test/v1/projects/${project.id}/authorize?${query}`);
    expect(location).toContain('/pages/sign-in?interaction=');
    const uid = new URL(location!).searchParams.get('interaction')!;
    const user = await signIn('oidc@example.com', 'a sturdy passphrase 42');
    const done = await rt()
      .post(`/v1/auth/oidc/interactions/${uid}/complete`)
      .set('X-Service-Project-Key', projectKey)
      .set('Authorization', `Bearer ${user.body.session.access_token}`)
      .send({});
    expect(done.status).toBe(200);
    location = await visit(done.body.redirect_to);
    while (location?.startsWith('http://auth.test/')) location = await visit(location);
    const code = new URL(location!).searchParams.get('code');
    expect(code).toBeTruthy();
    const tokens = await request(gh.runtime)
      .post(`/v1/projects/${project.id}/token`)
      .auth(rp.body.client_id, rp.body.client_secret)
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example.com/callback',
        code_verifier: verifier,
      });
    expect(tokens.status).toBe(200);
    const claims = JSON.parse(
      Buffer.from(String(tokens.body.id_token).split('.')[1], 'base64url').toString(),
    ) as { sub: string; email: string };
    expect(claims).toMatchObject({ sub: user.body.user.id, email: 'oidc@example.com' });
  });

  it('applies the lockout and the rate limits', async () => {
    await rt()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'locked@example.com', password: 'a sturdy passphrase 42' });
    for (let i = 0; i < 5; i++)
      expectProblem(
        await signIn('locked@example.com', 'wrong password'),
        401,
        'invalid-credentials',
      );
    expectProblem(
      await signIn('locked@example.com', 'a sturdy passphrase 42'),
      429,
      'account-locked',
    );
    const ip = nextIp();
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await rt()
            .post('/v1/auth/sign-up')
            .set('X-Service-Project-Key', projectKey)
            .set('X-Forwarded-For', ip)
            .send({ email: `rl${i}@example.com`, password: 'a sturdy passphrase 42' })
        ).status,
      ).toBe(201);
    }
    expectProblem(
      await rt()
        .post('/v1/auth/sign-up')
        .set('X-Service-Project-Key', projectKey)
        .set('X-Forwarded-For', ip)
        .send({ email: 'rl9@example.com', password: 'a sturdy passphrase 42' }),
      429,
      'rate-limited',
    );
  });

  it('resets a password through real mail', async () => {
    await rt()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'mail@example.com', password: 'a sturdy passphrase 42' });
    expect(
      (
        await rt()
          .post('/v1/auth/password/forgot')
          .set('X-Service-Project-Key', projectKey)
          .send({ email: 'mail@example.com' })
      ).status,
    ).toBe(202);
    const token = linkIn(await smtp.waitFor('mail@example.com', 20_000)).searchParams.get('token')!;
    expect(
      (
        await rt()
          .post('/v1/auth/password/reset')
          .set('X-Service-Project-Key', projectKey)
          .send({ token, password: 'a new sturdy passphrase' })
      ).status,
    ).toBe(200);
    expect((await signIn('mail@example.com', 'a new sturdy passphrase')).status).toBe(200);
  });

  it('stops cleanly on SIGTERM and keeps the data across a restart', async () => {
    gh.child.kill('SIGTERM');
    expect(await gh.exited).toBe(0);
    gh = await startStandalone(dataDir, { SMTP_URL: smtp.url });
    // The admin's password came from BOOTSTRAP_ADMIN_PASSWORD, so admin.json holds none to point to.
    expect(gh.out()).toContain(
      'admin: owner@example.com (password: BOOTSTRAP_ADMIN_PASSWORD at first start)',
    );
    expect(readFileSync(join(dataDir, 'admin.json'), 'utf8')).not.toContain('password');
    expect((await signIn('solo@example.com', 'a sturdy passphrase 42')).status).toBe(200);
    const me = await rt()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', consoleKey)
      .set('Authorization', `Bearer ${adminToken}`);
    expect(me.body.user?.email).toBe('owner@example.com');
  });
});
