import { Webhook } from 'standardwebhooks';
import { PasswordCredential, User } from '@gatehouse/entities';
import {
  expectProblem,
  HttpReceiver,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the settings and the import go through the real admin API
import { buildControlPlane } from '../../control-plane/src/app-factory';
import { buildAuthRuntime } from '../src/app-factory';

const SECRET = `whsec_${Buffer.from('the old system shares this secret!!').toString('base64')}`;
const LEGACY_PASSWORD = 'an old password from the legacy system';

/**
 * Lazy password migration against a real local HTTP server standing in for the old system: it
 * accepts, refuses, answers 500 or never answers in time; every call is verified with the Standard
 * Webhooks reference library. Lockout and the wrong-password answer hold throughout.
 */
describe('lazy password migration', () => {
  const legacy = new HttpReceiver();
  let runtime: TestApp;
  let cp: TestApp;
  let tenant: SeededTenant;
  let adminToken: string;
  let mode: 'accept' | 'refuse' | 'error' | 'slow' | 'slow-refuse' = 'accept';

  const signIn = (identifier: string, password: string, ip = '198.51.100.7') =>
    runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', ip)
      .send({ identifier, password });
  const patchProject = (body: object) =>
    cp
      .http()
      .patch(`/v1/admin/projects/${tenant.project.id}`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send(body);
  const userOf = (email: string) => runtime.dataSource.getRepository(User).findOneBy({ email });

  beforeAll(async () => {
    await legacy.start();
    legacy.respond = (req) => {
      const body = JSON.parse(req.body) as { email: string; password: string };
      if (mode === 'error') return { status: 500, body: '{"error":"boom"}' };
      if (mode === 'slow')
        return {
          status: 200,
          body: JSON.stringify({ user: { email: body.email } }),
          delayMs: 1500,
        };
      if (mode === 'slow-refuse') return { status: 401, body: '{}', delayMs: 600 };
      if (mode === 'refuse' || body.password !== LEGACY_PASSWORD)
        return { status: 401, body: '{}' };
      return { status: 200, body: JSON.stringify({ user: { email: body.email, name: 'Legacy' } }) };
    };
    runtime = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    mode = 'accept';
    legacy.clear();
    await runtime.reset();
    tenant = await seedTenant(cp.app);
    adminToken = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
    const res = await patchProject({
      settings: {
        password_migration: {
          enabled: true,
          url: `${legacy.url}/verify`,
          secret: SECRET,
          timeout_ms: 800,
        },
      },
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await runtime.close();
    await cp.close();
    await legacy.stop();
  });

  it('the settings keep the secret write-only and refuse an address webhooks could not reach or a malformed secret', async () => {
    const read = await cp
      .http()
      .get(`/v1/admin/projects/${tenant.project.id}`)
      .set('Authorization', `Bearer ${adminToken}`);
    expect(read.body.settings.password_migration).toEqual({
      enabled: true,
      url: `${legacy.url}/verify`,
      timeout_ms: 800,
      secret_set: true,
    });
    expect(JSON.stringify(read.body)).not.toContain(SECRET.slice(6, 20));
    // A PATCH without the secret keeps it.
    await patchProject({
      settings: {
        password_migration: { enabled: true, url: `${legacy.url}/verify`, timeout_ms: 800 },
      },
    });
    expect(
      (
        await cp
          .http()
          .get(`/v1/admin/projects/${tenant.project.id}`)
          .set('Authorization', `Bearer ${adminToken}`)
      ).body.settings.password_migration.secret_set,
    ).toBe(true);
    expectProblem(
      await patchProject({
        settings: {
          password_migration: {
            enabled: true,
            url: 'http://169.254.169.254/latest/meta-data',
            secret: SECRET,
          },
        },
      }),
      400,
      'validation-error',
    );
    expectProblem(
      await patchProject({
        settings: {
          password_migration: { enabled: true, url: `${legacy.url}/verify`, secret: 'too-short' },
        },
      }),
      400,
      'validation-error',
    );
  });

  it('an unknown email whose old password the old system accepts is created with our hash and signed in; the next sign-in does not ask again', async () => {
    const res = await signIn('Grace@Legacy.test', LEGACY_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('grace@legacy.test');
    const [call] = legacy.requests;
    expect(JSON.parse(call.body)).toEqual({
      email: 'grace@legacy.test',
      password: LEGACY_PASSWORD,
    });
    // Signed as our webhooks are: the reference library verifies it with the shared secret.
    expect(
      new Webhook(SECRET.slice('whsec_'.length)).verify(
        call.body,
        call.headers as Record<string, string>,
      ),
    ).toEqual({ email: 'grace@legacy.test', password: LEGACY_PASSWORD });
    const user = await userOf('grace@legacy.test');
    expect(
      (
        await runtime.dataSource
          .getRepository(PasswordCredential)
          .findOneByOrFail({ userId: user!.id })
      ).scheme,
    ).toBe('bcrypt-sha256');
    expect((await signIn('grace@legacy.test', LEGACY_PASSWORD)).status).toBe(200);
    expect(legacy.requests).toHaveLength(1);
  });

  it('first sign-ins of the same unknown email at once (a double click) all sign in, and one user is created', async () => {
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        signIn('ada.twice@legacy.test', LEGACY_PASSWORD, `198.51.100.${80 + i}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ada = await runtime.dataSource
      .getRepository(User)
      .findBy({ email: 'ada.twice@legacy.test' });
    expect(ada).toHaveLength(1);
    expect(
      await runtime.dataSource.getRepository(PasswordCredential).findOneBy({ userId: ada[0].id }),
    ).toMatchObject({ scheme: 'bcrypt-sha256' });
    // And a wrong password in such a race stays wrong.
    const mixed = await Promise.all([
      signIn('grace.twice@legacy.test', LEGACY_PASSWORD, '198.51.100.90'),
      signIn('grace.twice@legacy.test', 'not the legacy password', '198.51.100.91'),
    ]);
    expect(mixed.map((r) => r.status)).toEqual([200, 401]);
  });

  it('a refusal, a 500 or no answer in time is a wrong password (the same answer), and no user is created', async () => {
    const control = await signIn('nobody@legacy.test', 'not the legacy password');
    expectProblem(control, 401, 'invalid-credentials');
    for (const m of ['refuse', 'error', 'slow'] as const) {
      mode = m;
      const started = Date.now();
      const res = await signIn(`${m}@legacy.test`, LEGACY_PASSWORD, `198.51.100.${m.length}`);
      expectProblem(res, 401, 'invalid-credentials');
      expect(res.body.detail).toBe(control.body.detail);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await userOf(`${m}@legacy.test`)).toBeNull();
    }
  });

  it('an imported user without a hash (needs_migration) completes at the first sign-in; a user with a password never asks', async () => {
    const imported = await cp
      .http()
      .post(`/v1/admin/projects/${tenant.project.id}/users/import`)
      .set('Authorization', `Bearer ${adminToken}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(
        JSON.stringify({
          email: 'linus@legacy.test',
          email_verified: true,
          external_id: 'legacy-7',
        }) + '\n',
      );
    expect(imported.body.counts.created).toBe(1);
    expect((await userOf('linus@legacy.test'))!.needsMigration).toBe(true);
    expect((await signIn('linus@legacy.test', LEGACY_PASSWORD)).status).toBe(200);
    const linus = (await userOf('linus@legacy.test'))!;
    expect([linus.needsMigration, linus.externalId, linus.emailVerified]).toEqual([
      false,
      'legacy-7',
      true,
    ]);
    // A user with a Gatehouse password: a wrong password stays wrong and the old system is not asked.
    legacy.clear();
    expectProblem(
      await signIn('linus@legacy.test', 'wrong password here'),
      401,
      'invalid-credentials',
    );
    expect(legacy.requests).toHaveLength(0);
  });

  it('a wrong password takes as long for a known email as the call for an unknown one does, so its time does not tell them apart', async () => {
    const known = await runtime
      .http()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', '198.51.100.40')
      .send({ email: 'known@legacy.test', password: 'a Gatehouse password 42' });
    expect(known.status).toBe(201);
    mode = 'slow-refuse';
    const timed = async (email: string, ip: string) => {
      const started = Date.now();
      expectProblem(await signIn(email, 'a wrong password', ip), 401, 'invalid-credentials');
      return Date.now() - started;
    };
    // Unknown emails: the old system is asked, and takes 600 ms to refuse.
    for (let i = 0; i < 3; i += 1)
      expect(await timed(`unknown${i}@legacy.test`, `198.51.100.${50 + i}`)).toBeGreaterThanOrEqual(
        600,
      );
    expect(legacy.requests).toHaveLength(3);
    // The known email: not asked, yet no quicker than those calls.
    for (let i = 0; i < 2; i += 1)
      expect(await timed('known@legacy.test', `198.51.100.${60 + i}`)).toBeGreaterThanOrEqual(600);
    expect(legacy.requests).toHaveLength(3);
    // Another replica (or this one restarted) has made no call itself: it draws from the same shared durations.
    const replica = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
    try {
      const started = Date.now();
      const res = await replica
        .http()
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', '198.51.100.70')
        .send({ identifier: 'known@legacy.test', password: 'a wrong password' });
      expectProblem(res, 401, 'invalid-credentials');
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    } finally {
      await replica.close();
    }
    expect(legacy.requests).toHaveLength(3);
  });

  it('the limits apply before the call: after five failures the sixth attempt is refused (429) and the old system is not asked', async () => {
    mode = 'refuse';
    for (let i = 0; i < 5; i += 1)
      expectProblem(
        await signIn('mallory@legacy.test', `guess number ${i}`, `203.0.113.${i}`),
        401,
        'invalid-credentials',
      );
    expect(legacy.requests).toHaveLength(5);
    mode = 'accept';
    // From yet another address (under every rate limit): the lock answers, before any call.
    expectProblem(
      await signIn('mallory@legacy.test', LEGACY_PASSWORD, '203.0.113.99'),
      429,
      'account-locked',
    );
    expect(legacy.requests).toHaveLength(5);
  });

  it('off: the old system is never asked', async () => {
    await patchProject({
      settings: { password_migration: { enabled: false, url: `${legacy.url}/verify` } },
    });
    expectProblem(await signIn('grace@legacy.test', LEGACY_PASSWORD), 401, 'invalid-credentials');
    expect(legacy.requests).toHaveLength(0);
  });
});
