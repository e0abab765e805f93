import * as bcrypt from 'bcrypt';
import * as jwt from 'jsonwebtoken';
import { createPublicKey } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuditEvent, PasswordCredential } from '@gatehouse/entities';
import { AccessTokensService, ProjectsCache } from '@gatehouse/identity';
import {
  createUser,
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

describe('passwords, enumeration, rate limits, lockout, hostile input, forged tokens', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;
  const signIn = (identifier: string, password: string, ip = nextIp()) =>
    t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .set('X-Forwarded-For', ip)
      .send({ identifier, password });
  const signUp = (body: unknown, ip = nextIp()) =>
    t
      .http()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', key())
      .set('X-Forwarded-For', ip)
      .send(body as object);

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback', BCRYPT_COST: '10' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  describe('password rules', () => {
    it('never truncates: a 100-byte password and its first 72 bytes are different passwords', async () => {
      const long = 'L'.repeat(50) + 'x'.repeat(50);
      await signUpUser(t, key(), 'long@example.com', long);
      expect((await signIn('long@example.com', long)).status).toBe(200);
      expectProblem(
        await signIn('long@example.com', long.slice(0, 72)),
        401,
        'invalid-credentials',
      );
    });

    it('normalises with NFKC (a ligature and its letters are the same password)', async () => {
      await signUpUser(t, key(), 'nfkc@example.com', 'ﬁne ﬁsh and chips');
      expect((await signIn('nfkc@example.com', 'fine fish and chips')).status).toBe(200);
    });

    it('refuses short, long, common, and email-equal passwords with validation-error on password', async () => {
      for (const [password, extra] of [
        ['short1', {}],
        ['x'.repeat(129), {}],
        ['password123', {}],
        ['Qwertyuiop', {}],
        ['same@example.com', {}],
        ['the_username', { username: 'the_username' }],
      ] as const) {
        const res = await signUp({ email: 'same@example.com', password, ...extra });
        const body = expectProblem(res, 400, 'validation-error', '/v1/auth/sign-up');
        expect(Object.keys(body.errors as object)).toEqual(['password']);
      }
      expect((await signUp({ email: 'same@example.com', password: '😀'.repeat(8) })).status).toBe(
        201,
      );
    });

    it('verifies an imported plain $2b$ hash and upgrades it at sign-in', async () => {
      const user = await createUser(t.app, tenant.project, 'imported@example.com');
      const ds = t.app.get(DataSource);
      await ds
        .getRepository(PasswordCredential)
        .update(
          { userId: user.id },
          { passwordHash: await bcrypt.hash('imported secret 1', 10), scheme: 'bcrypt' },
        );
      expect((await signIn('imported@example.com', 'imported secret 1')).status).toBe(200);
      const cred = await ds.getRepository(PasswordCredential).findOneByOrFail({ userId: user.id });
      expect(cred.scheme).toBe('bcrypt-sha256');
      expect((await signIn('imported@example.com', 'imported secret 1')).status).toBe(200);
    });
  });

  describe('sign-up conflicts and fields', () => {
    it('answers 409 naming the field for an existing email (any case) or username', async () => {
      expect(
        (
          await signUp({
            email: 'dup@example.com',
            password: 'a sturdy passphrase',
            username: 'dupe',
          })
        ).status,
      ).toBe(201);
      const email = expectProblem(
        await signUp({ email: 'DUP@example.com', password: 'a sturdy passphrase' }),
        409,
        'conflict',
      );
      expect(email.errors).toEqual({ email: [expect.any(String)] });
      const name = expectProblem(
        await signUp({
          email: 'other@example.com',
          password: 'a sturdy passphrase',
          username: 'DUPE',
        }),
        409,
        'conflict',
      );
      expect(name.errors).toEqual({ username: [expect.any(String)] });
    });

    it('refuses missing, extra, mistyped and hostile fields with the field named', async () => {
      const cases: [unknown, string][] = [
        [{ password: 'a sturdy passphrase' }, 'email'],
        [{ email: 'x@example.com' }, 'password'],
        [{ email: 'not-an-email', password: 'a sturdy passphrase' }, 'email'],
        [{ email: 42, password: 'a sturdy passphrase' }, 'email'],
        [{ email: 'x@example.com', password: 12345678 }, 'password'],
        [{ email: 'x@example.com', password: 'a sturdy passphrase', is_admin: true }, 'is_admin'],
        [{ email: 'x@example.com', password: 'a sturdy passphrase', username: 'a b' }, 'username'],
        [{ email: 'x@example.com', password: 'a sturdy passphrase', metadata: 'text' }, 'metadata'],
        [
          {
            email: 'x@example.com',
            password: 'a sturdy passphrase',
            metadata: { big: 'x'.repeat(9000) },
          },
          'metadata',
        ],
        [{ email: 'x\u0000@example.com', password: 'a sturdy passphrase' }, 'email'],
      ];
      for (const [body, field] of cases) {
        const res = await signUp(body);
        expect({
          field,
          errors: Object.keys(expectProblem(res, 400, 'validation-error').errors as object),
        }).toEqual({ field, errors: expect.arrayContaining([field]) });
      }
      const proto = await t
        .http()
        .post('/v1/auth/sign-up')
        .set('X-Service-Project-Key', key())
        .set('Content-Type', 'application/json')
        .send(
          '{"email":"p@example.com","password":"a sturdy passphrase","__proto__":{"is_admin":true}}',
        );
      expect(expectProblem(proto, 400, 'validation-error').errors).toHaveProperty(['__proto__']);
      const surrogate = await t
        .http()
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', key())
        .set('Content-Type', 'application/json')
        .send('{"identifier":"\\ud83d@example.com","password":"x"}');
      expect(expectProblem(surrogate, 400, 'validation-error').errors).toHaveProperty('identifier');
      expectProblem(
        await t
          .http()
          .post('/v1/auth/sign-in')
          .set('X-Service-Project-Key', key())
          .set('Content-Type', 'text/plain')
          .send('hi'),
        415,
        'unsupported-media-type',
      );
      const mib = await t
        .http()
        .post('/v1/auth/sign-up')
        .set('X-Service-Project-Key', key())
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ email: 'x@example.com', password: 'p'.repeat(1024 * 1024) }));
      expectProblem(mib, 413, 'payload-too-large');
      expectProblem(
        await t
          .http()
          .post('/v1/auth/sign-in')
          .set('X-Service-Project-Key', key())
          .set('Content-Type', 'application/json')
          .send('{"identifier":'),
        400,
        'invalid-json',
      );
      expect(
        await t.app
          .get(DataSource)
          .query('SELECT count(*)::int AS n FROM users WHERE project_id = $1', [tenant.project.id]),
      ).toEqual([{ n: 0 }]);
    });
  });

  describe('no enumeration', () => {
    it('answers an unknown identifier and a wrong password identically', async () => {
      await signUpUser(t, key(), 'known@example.com');
      const wrong = await signIn('known@example.com', 'not the password');
      const unknown = await signIn('nobody@example.com', 'not the password');
      const a = expectProblem(wrong, 401, 'invalid-credentials');
      const b = expectProblem(unknown, 401, 'invalid-credentials');
      expect({ ...a, traceId: 0 }).toEqual({ ...b, traceId: 0 });
      const headerNames = (r: typeof wrong) =>
        Object.keys(r.headers)
          .filter((h) => !['date', 'traceresponse', 'content-length', 'etag'].includes(h))
          .sort();
      expect(headerNames(wrong)).toEqual(headerNames(unknown));
    });

    it('spends comparable time on unknown identifiers and wrong passwords (one bcrypt each)', async () => {
      await signUpUser(t, key(), 'timing@example.com');
      const time = async (identifier: string) => {
        const started = process.hrtime.bigint();
        await signIn(identifier, 'not the password');
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 4; i++) {
        known.push(await time('timing@example.com'));
        unknown.push(await time(`ghost${i}@example.com`));
        await t.app.get(DataSource).query('SELECT 1');
      }
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
      expect(median(unknown)).toBeLessThan(median(known) * 2);
    });
  });

  describe('rate limits', () => {
    it('limits sign-in to 5 a minute per address and identifier, with RateLimit headers on every response', async () => {
      await signUpUser(t, key(), 'rl@example.com');
      const ip = nextIp();
      for (let i = 1; i <= 5; i++) {
        const res = await signIn('rl@example.com', 'wrong password', ip);
        expect(res.status).toBe(401);
        expect(res.headers['ratelimit-limit']).toBe('5');
        expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      const sixth = await signIn('rl@example.com', 'a sturdy passphrase 42', ip);
      expectProblem(sixth, 429, 'rate-limited', '/v1/auth/sign-in');
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect(sixth.headers['ratelimit-remaining']).toBe('0');
      expect((await signIn('other@example.com', 'whatever pass', ip)).status).toBe(401);
    });

    it('limits sign-up to 3 a minute per address', async () => {
      const ip = nextIp();
      for (let i = 0; i < 3; i++)
        expect(
          (await signUp({ email: `s${i}@example.com`, password: 'a sturdy passphrase' }, ip))
            .status,
        ).toBe(201);
      const fourth = await signUp({ email: 's4@example.com', password: 'a sturdy passphrase' }, ip);
      expectProblem(fourth, 429, 'rate-limited');
      expect(fourth.headers['ratelimit-limit']).toBe('3');
    });

    it('counts IPv6 clients by their /64: other addresses of the same network share the limit, another network does not', async () => {
      const network = ['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:ffff:ffff:ffff:fffe'];
      for (const [i, ip] of network.entries())
        expect(
          (await signUp({ email: `v6-${i}@example.com`, password: 'a sturdy passphrase' }, ip))
            .status,
        ).toBe(201);
      const fourth = await signUp(
        { email: 'v6-3@example.com', password: 'a sturdy passphrase' },
        '2001:db8:7:1:abcd::9',
      );
      expectProblem(fourth, 429, 'rate-limited');
      expect(fourth.headers['ratelimit-remaining']).toBe('0');
      expect(
        (
          await signUp(
            { email: 'v6-4@example.com', password: 'a sturdy passphrase' },
            '2001:db8:7:2::1',
          )
        ).status,
      ).toBe(201);
      // The sign-in limit (address and identifier) and the global limit count the same way.
      for (let i = 0; i < 5; i++)
        expectProblem(
          await signIn('v6-0@example.com', 'wrong passphrase', `2001:db8:7:1::${100 + i}`),
          401,
          'invalid-credentials',
        );
      expectProblem(
        await signIn('v6-0@example.com', 'wrong passphrase', '2001:db8:7:1::200'),
        429,
        'rate-limited',
      );
      const global = await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('X-Forwarded-For', '2001:db8:7:1::300');
      expect(Number(global.headers['ratelimit-remaining'])).toBe(1000 - 3 - 1 - 6 - 1);
    });

    it('counts the global limit (1000 a minute) per address across every route, refused and unrouted requests included', async () => {
      const ip = nextIp();
      const get = (path: string, from = ip) =>
        t.http().get(path).set('X-Service-Project-Key', key()).set('X-Forwarded-For', from);
      for (let sent = 0; sent < 995; sent += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, 995 - sent) }, () => get('/v1/auth/jwks.json')),
        );
      }
      const unrouted = await get('/v1/auth/no-such-route');
      expectProblem(unrouted, 404, 'not-found');
      expect(unrouted.headers['ratelimit-limit']).toBe('1000');
      expect(unrouted.headers['ratelimit-remaining']).toBe('4');
      const badJson = await t
        .http()
        .post('/v1/auth/sign-out')
        .set('X-Service-Project-Key', key())
        .set('X-Forwarded-For', ip)
        .set('Content-Type', 'application/json')
        .send('{');
      expect(badJson.headers['ratelimit-remaining']).toBe('3');
      expectProblem(
        await t.http().put('/v1/auth/me').set('X-Forwarded-For', ip),
        405,
        'method-not-allowed',
      );
      expect((await get('/v1/auth/sessions')).headers['ratelimit-remaining']).toBe('1');
      const last = await get('/v1/auth/me');
      expect(last.status).toBe(200);
      expect(last.headers['ratelimit-remaining']).toBe('0');
      const over = await get('/v1/auth/me');
      expectProblem(over, 429, 'rate-limited', '/v1/auth/me');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expectProblem(await get('/v1/auth/no-such-route'), 429, 'rate-limited');
      // A route with a limit of its own refused by the global one reports the global numbers.
      const signIn = await t
        .http()
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', key())
        .set('X-Forwarded-For', ip)
        .send({ identifier: 'a@example.com', password: 'whatever pass' });
      expectProblem(signIn, 429, 'rate-limited');
      expect([signIn.headers['ratelimit-limit'], signIn.headers['ratelimit-remaining']]).toEqual([
        '1000',
        '0',
      ]);
      expect(signIn.headers['ratelimit-reset']).toBe(signIn.headers['retry-after']);
      // Another address, and health probes, are not affected.
      expect((await get('/v1/auth/me', nextIp())).status).toBe(200);
      expect((await t.http().get('/health/live').set('X-Forwarded-For', ip)).status).toBe(200);
    });

    it('reports the limit of sign-in, sign-up, forgot and magic-link send on every answer, refused bodies and keys included', async () => {
      const ip = nextIp();
      const post = (path: string) => t.http().post(path).set('X-Forwarded-For', ip);
      const answers = [
        [
          await post('/v1/auth/sign-in')
            .set('X-Service-Project-Key', key())
            .set('Content-Type', 'application/json')
            .send('{'),
          '5',
        ],
        [
          await post('/v1/auth/sign-in')
            .set('X-Service-Project-Key', key())
            .send({ identifier: 1 }),
          '5',
        ],
        [
          await post('/v1/auth/sign-in').send({
            identifier: 'a@example.com',
            password: 'whatever pass',
          }),
          '5',
        ],
        [
          await post('/v1/auth/sign-up')
            .set('X-Service-Project-Key', key())
            .set('Content-Type', 'text/plain')
            .send('x'),
          '3',
        ],
        [
          await post('/v1/auth/sign-up').set('X-Service-Project-Key', key()).send({ email: 'x' }),
          '3',
        ],
        [await post('/v1/auth/password/forgot').set('X-Service-Project-Key', key()).send({}), '3'],
        [
          await post('/v1/auth/magic-link/send')
            .set('X-Service-Project-Key', key())
            .set('Content-Type', 'application/json')
            .send('{'),
          '5',
        ],
        [
          await post('/v1/auth/magic-link/send')
            .set('X-Service-Project-Key', key())
            .set('Content-Type', 'text/plain')
            .send('x'),
          '5',
        ],
      ] as const;
      for (const [res, limit] of answers) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect([res.status, res.headers['ratelimit-limit']]).toEqual([res.status, limit]);
        expect(res.headers['ratelimit-remaining']).toBe(limit);
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
    });

    it('judges the project key before the body: 401 whatever the body, then the problem of the body', async () => {
      const signInRaw = (projectKey: string | null, type: string, body: string) => {
        const req = t
          .http()
          .post('/v1/auth/sign-in')
          .set('X-Forwarded-For', nextIp())
          .set('Content-Type', type);
        return (projectKey ? req.set('X-Service-Project-Key', projectKey) : req).send(body);
      };
      const huge = JSON.stringify({
        identifier: 'a@example.com',
        password: 'x'.repeat(200 * 1024),
      });
      for (const projectKey of [null, 'pk_unknown']) {
        expectProblem(
          await signInRaw(projectKey, 'application/json', '{'),
          401,
          'unauthenticated',
          '/v1/auth/sign-in',
        );
        expectProblem(await signInRaw(projectKey, 'text/plain', 'x'), 401, 'unauthenticated');
        expectProblem(
          await signInRaw(projectKey, 'application/json', huge),
          401,
          'unauthenticated',
        );
      }
      expectProblem(await signInRaw(key(), 'application/json', '{'), 400, 'invalid-json');
      expectProblem(await signInRaw(key(), 'text/plain', 'x'), 415, 'unsupported-media-type');
      expectProblem(await signInRaw(key(), 'application/json', huge), 413, 'payload-too-large');
      // A body that says it is gzip but is not: unreadable, judged like invalid JSON (after the key).
      const notGzip = (projectKey: string | null) => {
        const req = t
          .http()
          .post('/v1/auth/sign-in')
          .set('X-Forwarded-For', nextIp())
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip');
        return (projectKey ? req.set('X-Service-Project-Key', projectKey) : req).send(
          '{"identifier":"a@example.com","password":"x"}',
        );
      };
      expectProblem(await notGzip(null), 401, 'unauthenticated');
      expectProblem(await notGzip(key()), 400, 'invalid-json');
      // No route, no body judged: 404.
      expectProblem(
        await t.http().post('/v1/auth/nowhere').set('Content-Type', 'application/json').send('{'),
        404,
        'not-found',
      );
    });

    it('judges the session (and its CSRF rule) before the body on session routes', async () => {
      const u = await signUpUser(t, key(), 'order@example.com');
      const setup = () =>
        t
          .http()
          .post('/v1/auth/mfa/totp/setup')
          .set('X-Service-Project-Key', key())
          .set('Content-Type', 'application/json');
      expectProblem(
        await setup().send('{"broken": '),
        401,
        'unauthenticated',
        '/v1/auth/mfa/totp/setup',
      );
      const fromElsewhere = () =>
        setup()
          .set('Cookie', `service_session=${u.accessToken}`)
          .set('Origin', 'https://evil.example');
      expectProblem(await fromElsewhere().send('{"broken": '), 403, 'forbidden');
      expectProblem(
        await setup().set('Authorization', `Bearer ${u.accessToken}`).send('{"broken": '),
        400,
        'invalid-json',
      );
      expectProblem(
        await t
          .http()
          .delete(`/v1/auth/sessions/${u.sessionId}`)
          .set('X-Service-Project-Key', key())
          .set('Content-Type', 'text/plain')
          .send('x'),
        401,
        'unauthenticated',
      );
    });

    it('takes the client address from X-Forwarded-For only through a trusted proxy', async () => {
      const untrusted = await startTestApp(buildAuthRuntime);
      try {
        for (let i = 0; i < 3; i++) {
          const res = await untrusted
            .http()
            .post('/v1/auth/sign-up')
            .set('X-Service-Project-Key', key())
            .set('X-Forwarded-For', nextIp())
            .send({ email: `xff${i}@example.com`, password: 'a sturdy passphrase' });
          expect(res.status).toBe(201);
        }
        const res = await untrusted
          .http()
          .post('/v1/auth/sign-up')
          .set('X-Service-Project-Key', key())
          .set('X-Forwarded-For', nextIp())
          .send({ email: 'xff4@example.com', password: 'a sturdy passphrase' });
        expectProblem(res, 429, 'rate-limited');
      } finally {
        await untrusted.close();
      }
    });
  });

  describe('progressive lockout', () => {
    it('locks after 5 failures: the 5th is still 401, then 429 account-locked until the lock ends, then 30 minutes', async () => {
      const u = await signUpUser(t, key(), 'lock@example.com');
      for (let i = 0; i < 5; i++)
        expectProblem(
          await signIn('lock@example.com', 'wrong password'),
          401,
          'invalid-credentials',
        );
      const locked = await signIn('LOCK@example.com ', u.password);
      const body = expectProblem(locked, 429, 'account-locked', '/v1/auth/sign-in');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(new Date(body.locked_until as string).getTime()).toBeGreaterThan(
        Date.now() + 14 * 60_000,
      );

      t.clock.advance(15 * 60_000 + 1000);
      for (let i = 0; i < 5; i++)
        expectProblem(
          await signIn('lock@example.com', 'wrong password'),
          401,
          'invalid-credentials',
        );
      const second = await signIn('lock@example.com', u.password);
      expectProblem(second, 429, 'account-locked');
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(29 * 60);

      t.clock.advance(30 * 60_000 + 1000);
      expect((await signIn('lock@example.com', u.password)).status).toBe(200);
      for (let i = 0; i < 5; i++) await signIn('lock@example.com', 'wrong password');
      const afterReset = await signIn('lock@example.com', u.password);
      expect(Number(afterReset.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

      const actions = (await t.app.get(DataSource).getRepository(AuditEvent).find()).map(
        (e) => e.action,
      );
      expect(actions.filter((a) => a === 'user.locked')).toHaveLength(3);
      expect(actions.filter((a) => a === 'user.sign_in_failed').length).toBeGreaterThanOrEqual(15);
    });

    it('holds under concurrent guesses: 20 at once get five 401s and one first-level lock', async () => {
      const u = await signUpUser(t, key(), 'burst@example.com');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => signIn('burst@example.com', 'wrong password')),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      for (const r of answers.filter((a) => a.status === 429)) {
        expectProblem(r, 429, 'account-locked');
        expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      }
      expectProblem(await signIn('burst@example.com', u.password), 429, 'account-locked');
      const locks = () => t.dataSource.getRepository(AuditEvent).findBy({ action: 'user.locked' });
      expect(await locks()).toHaveLength(1);
      expect((await locks())[0].resourceId).toBe(u.id);

      // The burst raised the level once: the next lock is the second level (30 minutes), not a later one.
      t.clock.advance(15 * 60_000 + 1000);
      const again = await Promise.all(
        Array.from({ length: 8 }, () => signIn('burst@example.com', 'wrong password')),
      );
      expect(again.filter((r) => r.status === 401)).toHaveLength(5);
      const second = again.find((r) => r.status === 429)!;
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(29 * 60);
      expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(30 * 60);
      expect(await locks()).toHaveLength(2);
    });

    it('lets 20 concurrent right passwords for one account all sign in, and locks nothing', async () => {
      const u = await signUpUser(t, key(), 'busy@example.com');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => signIn('busy@example.com', u.password)),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(answers.map((r) => r.body.session.id)).size).toBe(20);
      expect(
        await t.dataSource.getRepository(AuditEvent).findBy({ action: 'user.locked' }),
      ).toHaveLength(0);
      for (let i = 0; i < 4; i++)
        expectProblem(
          await signIn('busy@example.com', 'wrong password'),
          401,
          'invalid-credentials',
        );
      expect((await signIn('busy@example.com', u.password)).status).toBe(200);
    });

    it('writes a sign-in failure for the right password of a disabled account, and the right password ends the streak', async () => {
      const u = await signUpUser(t, key(), 'off@example.com');
      for (let i = 0; i < 4; i++) await signIn('off@example.com', 'wrong password');
      await t.dataSource.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [u.id]);
      expectProblem(await signIn('off@example.com', u.password), 403, 'account-disabled');
      const failures = await t.dataSource
        .getRepository(AuditEvent)
        .findBy({ action: 'user.sign_in_failed' });
      // Each refused attempt says why in one reason word (docs/api-contract.md §13), with the identifier as typed (normalised).
      expect(failures.map((e) => [e.resourceId, e.metadata])).toEqual([
        ...Array(4).fill([u.id, { identifier: 'off@example.com', reason: 'invalid_credentials' }]),
        [u.id, { identifier: 'off@example.com', reason: 'disabled' }],
      ]);
      // Four failures before the right password: a fifth does not lock.
      expectProblem(await signIn('off@example.com', 'wrong password'), 401, 'invalid-credentials');
      expectProblem(await signIn('off@example.com', u.password), 403, 'account-disabled');
    });

    it('counts unknown identifiers too and answers the same way', async () => {
      for (let i = 0; i < 5; i++)
        expectProblem(
          await signIn('ghost@example.com', 'wrong password'),
          401,
          'invalid-credentials',
        );
      expectProblem(await signIn('ghost@example.com', 'wrong password'), 429, 'account-locked');
      // Five failures with no user; the refused sixth attempt is recorded as locked (docs/api-contract.md §13).
      const failures = await t.dataSource
        .getRepository(AuditEvent)
        .find({ where: { action: 'user.sign_in_failed' }, order: { createdAt: 'ASC' } });
      expect(failures.map((e) => [e.resourceId, e.metadata])).toEqual([
        ...Array(5).fill([
          null,
          { identifier: 'ghost@example.com', reason: 'invalid_credentials' },
        ]),
        [null, { identifier: 'ghost@example.com', reason: 'locked' }],
      ]);
    });

    it('answers rate-limited when both the rate limit and the lock apply', async () => {
      const ip = nextIp();
      for (let i = 0; i < 5; i++) await signIn('both@example.com', 'wrong password', ip);
      expectProblem(await signIn('both@example.com', 'wrong password', ip), 429, 'rate-limited');
      // Refused by the route's rate limit before the request is read: no failure is written for it
      // (a flood over the limit writes nothing; the lockout's own refusals are recorded, above).
      expect(
        await t.dataSource.getRepository(AuditEvent).countBy({ action: 'user.sign_in_failed' }),
      ).toBe(5);
    });
  });

  describe('email verification required by the project', () => {
    it('refuses password sign-in of an unverified email with 403 forbidden, after a correct password only', async () => {
      await t.dataSource.query(
        `UPDATE projects SET settings = settings || '{"require_email_verification": true}' WHERE id = $1`,
        [tenant.project.id],
      );
      await t.app
        .get(ProjectsCache)
        .invalidateProject({ id: tenant.project.id, publishableKey: key() });
      const u = await signUpUser(t, key(), 'unverified@example.com');
      expectProblem(
        await signIn('unverified@example.com', 'wrong password'),
        401,
        'invalid-credentials',
      );
      expectProblem(
        await signIn('unverified@example.com', u.password),
        403,
        'forbidden',
        '/v1/auth/sign-in',
      );
      await t.dataSource.query(`UPDATE users SET email_verified = true WHERE id = $1`, [u.id]);
      expect((await signIn('unverified@example.com', u.password)).status).toBe(200);
    });
  });

  describe('forged and foreign access tokens', () => {
    it('refuses alg none, HS256 keyed with our public key, unknown kid, expired and wrong-audience tokens', async () => {
      const u = await signUpUser(t, key(), 'forge@example.com');
      const [header, payload] = u.accessToken.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const kid = JSON.parse(Buffer.from(header, 'base64url').toString()).kid;
      const jwks = (await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', key()))
        .body.keys;
      const publicPem = createPublicKey({ key: jwks[0], format: 'jwk' })
        .export({ type: 'spki', format: 'pem' })
        .toString();
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid })).toString('base64url')}.${payload}.`;
      const hs256 = jwt.sign(claims, publicPem, {
        algorithm: 'HS256',
        keyid: kid,
        noTimestamp: true,
      });
      const unknownKid = `${Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'nope' })).toString('base64url')}.${payload}.${u.accessToken.split('.')[2]}`;
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-0000-0000-000000000000' })).toString('base64url')}.${u.accessToken.split('.')[2]}`;
      const nulKid = `${Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: '\u0000' })).toString('base64url')}.${payload}.${u.accessToken.split('.')[2]}`;
      expect(
        (
          await t
            .http()
            .get('/v1/auth/me')
            .set('X-Service-Project-Key', key())
            .set('Authorization', `Bearer ${nulKid}`)
        ).body,
      ).toEqual({ user: null });
      expect(
        (
          await t
            .http()
            .get('/v1/auth/me')
            .set('X-Service-Project-Key', key())
            .set('Cookie', `service_session=${encodeURIComponent(nulKid)}`)
        ).body,
      ).toEqual({ user: null });
      // `/sessions` verifies through the revocation cache, `/me` through its own PostgreSQL statement: both refuse.
      const me = async (token: string) =>
        (
          await t
            .http()
            .get('/v1/auth/me')
            .set('X-Service-Project-Key', key())
            .set('Authorization', `Bearer ${token}`)
        ).body;
      for (const token of [none, hs256, unknownKid, tampered, nulKid]) {
        expectProblem(
          await t
            .http()
            .get('/v1/auth/sessions')
            .set('X-Service-Project-Key', key())
            .set('Authorization', `Bearer ${token}`),
          401,
          'unauthenticated',
        );
        expect(await me(token)).toEqual({ user: null });
      }
      const consoleAdminToken = (
        await t.app.get(AccessTokensService).issue({
          tenantId: tenant.tenantId,
          projectId: tenant.consoleProjectId,
          userId: tenant.adminUserId,
          sessionId: '00000000-0000-0000-0000-000000000001',
          isAdmin: true,
        })
      ).token;
      expectProblem(
        await t
          .http()
          .get('/v1/auth/sessions')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${consoleAdminToken}`),
        401,
        'unauthenticated',
      );
      expect(await me(consoleAdminToken)).toEqual({ user: null });
      expect((await me(u.accessToken)).user).toEqual({
        id: u.id,
        email: 'forge@example.com',
        is_admin: false,
        mfa_factors: [],
      });
      t.clock.advance(901_000);
      expectProblem(
        await t
          .http()
          .get('/v1/auth/sessions')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${u.accessToken}`),
        401,
        'unauthenticated',
      );
      expect(await me(u.accessToken)).toEqual({ user: null });
    });
  });
});
