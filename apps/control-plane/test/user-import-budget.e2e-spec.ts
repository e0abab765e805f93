import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import { FirebaseScrypt } from 'firebase-scrypt';
import { In } from 'typeorm';
import { PasswordCredential, User } from '@gatehouse/entities';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- imported users sign in through the real auth runtime
import { buildAuthRuntime } from '../../auth-runtime/src/app-factory';
import { buildControlPlane } from '../src/app-factory';

const PASSWORD = 'correct horse battery staple';
const QUEUE_TIMEOUT_MS = 300;

function python(code: string): string {
  return execFileSync('python3', ['-c', code], { encoding: 'utf8' }).trim();
}
const pbkdf2Phc = (digest: string, tag: string, iterations: number, dklen: number) =>
  python(`import hashlib,base64
salt=b'saltsaltsalt1234'
dk=hashlib.pbkdf2_hmac('${digest}', ${JSON.stringify(PASSWORD)}.encode(), salt, ${iterations}, ${dklen})
ab64=lambda b: base64.b64encode(b).decode().rstrip('=').replace('+','.')
print('$pbkdf2${tag}$${iterations}$'+ab64(salt)+'$'+ab64(dk))`);
const django = (iterations: number) =>
  python(`import hashlib,base64
dk=hashlib.pbkdf2_hmac('sha256', ${JSON.stringify(PASSWORD)}.encode(), b'Xy1QnBC4cb3p', ${iterations})
print('pbkdf2_sha256$${iterations}$Xy1QnBC4cb3p$'+base64.b64encode(dk).decode())`);
const scrypt = (ln: number, r: number, p: number) =>
  python(`import hashlib,base64
salt=b'0123456789abcdef'
dk=hashlib.scrypt(${JSON.stringify(PASSWORD)}.encode(), salt=salt, n=2**${ln}, r=${r}, p=${p}, dklen=32, maxmem=2**28)
b=lambda x: base64.b64encode(x).decode().rstrip('=')
print('$scrypt$ln=${ln},r=${r},p=${p}$'+b(salt)+'$'+b(dk))`);
/** A Gatehouse export's Firebase line (its own parameters), hashed by firebase-scrypt. */
async function firebase(rounds: number, memCost: number) {
  const params = {
    signer_key: randomBytes(64).toString('base64'),
    salt_separator: 'Bw==',
    rounds,
    mem_cost: memCost,
  };
  const salt = randomBytes(12).toString('base64');
  const hash = await new FirebaseScrypt({
    memCost,
    rounds,
    saltSeparator: params.salt_separator,
    signerKey: params.signer_key,
  }).hash(PASSWORD, salt);
  return { algorithm: 'firebase_scrypt', hash, salt, ...params };
}

/**
 * docs/api-contract.md §12's work budget for imported hashes (64 MiB, about a second of one core; limits in
 * docs/migration.md) against the real control plane and auth runtime: hashes made by each scheme's
 * reference implementation at the budget's edge import and sign in, just past it are refused by
 * line number with nothing of them written; a hash stored over the budget before it existed is
 * refused at sign-in like a wrong password without being computed; and imported hashes wait in a
 * queue of their own project, refused 503 at PASSWORD_HASH_QUEUE_TIMEOUT_MS while another
 * project's sign-in goes through.
 */
jest.setTimeout(180_000);

describe('imported hash work budget', () => {
  let cp: TestApp;
  let runtime: TestApp;
  let a: SeededTenant;
  let b: SeededTenant;
  let tokenA: string;
  let tokenB: string;

  const importLines = (tenant: SeededTenant, token: string, lines: object[]) =>
    cp
      .http()
      .post(`/v1/admin/projects/${tenant.project.id}/users/import`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const signIn = (tenant: SeededTenant, identifier: string, password: string) =>
    runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', `198.51.100.${Math.floor(Math.random() * 250)}`)
      .send({ identifier, password });
  const credentialOf = async (email: string) => {
    const user = await cp.dataSource.getRepository(User).findOneByOrFail({ email });
    return cp.dataSource.getRepository(PasswordCredential).findOneByOrFail({ userId: user.id });
  };

  beforeAll(async () => {
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
    // Four of ours at once, two imported checks at once (one per project), a short wait for a turn.
    runtime = await startTestApp(buildAuthRuntime, {
      TRUST_PROXY: 'loopback',
      PASSWORD_HASH_CONCURRENCY: '4',
      PASSWORD_HASH_QUEUE_TIMEOUT_MS: String(QUEUE_TIMEOUT_MS),
    });
  });
  beforeEach(async () => {
    await cp.reset();
    a = await seedTenant(cp.app, 'Acme');
    b = await seedTenant(cp.app, 'Bravo');
    tokenA = (await mintAccessToken(cp.app, a.adminUserId)).token;
    tokenB = (await mintAccessToken(cp.app, b.adminUserId)).token;
  });
  afterAll(async () => {
    await runtime.close();
    await cp.close();
  });

  it("imports each scheme's hash at the budget's edge (each signs in with its password) and refuses each just past it by line number, writing nothing of it", async () => {
    const lines: { email: string; password_hash: unknown; accepted: boolean }[] = [
      {
        email: 'bcrypt14@budget.test',
        password_hash: await bcrypt.hash(PASSWORD, 14),
        accepted: true,
      },
      {
        email: 'bcrypt15@budget.test',
        password_hash: await bcrypt.hash(PASSWORD, 15),
        accepted: false,
      },
      {
        email: 'argon-edge@budget.test',
        password_hash: await argon2.hash(PASSWORD, {
          type: argon2.argon2id,
          memoryCost: 65536,
          timeCost: 16,
          parallelism: 4,
        }),
        accepted: true,
      },
      {
        email: 'argon-passes@budget.test',
        password_hash: await argon2.hash(PASSWORD, {
          type: argon2.argon2id,
          memoryCost: 65536,
          timeCost: 17,
          parallelism: 1,
        }),
        accepted: false,
      },
      {
        email: 'argon-memory@budget.test',
        password_hash: await argon2.hash(PASSWORD, {
          type: argon2.argon2id,
          memoryCost: 65537,
          timeCost: 1,
          parallelism: 1,
        }),
        accepted: false,
      },
      {
        email: 'argon-lanes@budget.test',
        password_hash: await argon2.hash(PASSWORD, {
          type: argon2.argon2id,
          memoryCost: 8192,
          timeCost: 1,
          parallelism: 5,
        }),
        accepted: false,
      },
      { email: 'scrypt-edge@budget.test', password_hash: scrypt(16, 8, 5), accepted: true },
      { email: 'scrypt-memory@budget.test', password_hash: scrypt(17, 8, 1), accepted: false },
      { email: 'scrypt-lanes@budget.test', password_hash: scrypt(16, 8, 6), accepted: false },
      { email: 'django-edge@budget.test', password_hash: django(5_000_000), accepted: true },
      { email: 'django-past@budget.test', password_hash: django(5_000_001), accepted: false },
      {
        email: 'sha512-edge@budget.test',
        password_hash: pbkdf2Phc('sha512', '-sha512', 1_700_000, 64),
        accepted: true,
      },
      {
        email: 'sha512-key@budget.test',
        password_hash: pbkdf2Phc('sha512', '-sha512', 1000, 65),
        accepted: false,
      },
      {
        email: 'sha1-edge@budget.test',
        password_hash: pbkdf2Phc('sha1', '', 1_000_000, 64),
        accepted: true,
      },
      {
        email: 'sha1-past@budget.test',
        password_hash: pbkdf2Phc('sha1', '', 1_000_001, 64),
        accepted: false,
      },
      { email: 'firebase-edge@budget.test', password_hash: await firebase(8, 14), accepted: true },
      { email: 'firebase-past@budget.test', password_hash: await firebase(9, 14), accepted: false },
    ];
    const res = await importLines(
      a,
      tokenA,
      lines.map(({ email, password_hash }) => ({ email, email_verified: true, password_hash })),
    );
    expect(res.status).toBe(200);
    const accepted = lines.filter((l) => l.accepted);
    const refused = lines.flatMap((l, i) => (l.accepted ? [] : [{ line: i + 1, email: l.email }]));
    expect(res.body.counts).toEqual({
      created: accepted.length,
      updated: 0,
      skipped: 0,
      conflicts: 0,
      rejected: refused.length,
    });
    expect(res.body.errors.map((e: { line: number; type: string }) => [e.line, e.type])).toEqual(
      refused.map((r) => [r.line, 'validation-error']),
    );
    const reasons = (res.body.errors as { errors: { password_hash: string[] } }[]).map(
      (e) => e.errors.password_hash,
    );
    expect(reasons).toEqual([
      [expect.stringMatching(/^bcrypt cost 15 is over the work budget/)],
      [expect.stringMatching(/^argon2 m·t = 1114112 is over the work budget/)],
      [expect.stringMatching(/^argon2 m=65537 KiB .* over the work budget/)],
      [expect.stringMatching(/^argon2 p=5 is over the work budget/)],
      [expect.stringMatching(/^scrypt needs 128 MiB \(128·N·r\)/)],
      [expect.stringMatching(/^scrypt p=6 at 64 MiB is over the work budget/)],
      [expect.stringMatching(/^pbkdf2-sha256 at 5000001 iterations/)],
      [expect.stringMatching(/^pbkdf2 derived key of 65 bytes/)],
      [expect.stringMatching(/^pbkdf2-sha1 at 1000001 iterations × 4 block/)],
      [expect.stringMatching(/^firebase_scrypt|^rounds must be 1–8/)],
    ]);
    // Nothing of a refused line is written; the others are, in their own scheme.
    expect(
      await cp.dataSource.getRepository(User).countBy({ email: In(refused.map((r) => r.email)) }),
    ).toBe(0);
    for (const l of accepted)
      expect([l.email, (await credentialOf(l.email)).scheme]).not.toEqual([
        l.email,
        'bcrypt-sha256',
      ]);
    for (const l of accepted) {
      const ok = await signIn(a, l.email, PASSWORD);
      expect([l.email, ok.status, ok.body.user?.email]).toEqual([l.email, 200, l.email]);
      expect([l.email, (await credentialOf(l.email)).scheme]).toEqual([l.email, 'bcrypt-sha256']);
    }
  });

  it('refuses a hash stored over the budget (before it existed) at sign-in as a wrong password, even with the right one, without computing it, and logs it once', async () => {
    const imported = await importLines(a, tokenA, [
      {
        email: 'slow-bcrypt@budget.test',
        email_verified: true,
        password_hash: await bcrypt.hash(PASSWORD, 4),
      },
      {
        email: 'big-argon@budget.test',
        email_verified: true,
        password_hash: await bcrypt.hash(PASSWORD, 4),
      },
      {
        email: 'plain@budget.test',
        email_verified: true,
        password_hash: await bcrypt.hash(PASSWORD, 4),
      },
    ]);
    expect(imported.body.counts.created).toBe(3);
    // Real hashes of the right password, written straight into the database as an import before the
    // budget could: bcrypt cost 15 (about 2 s), Argon2 with 256 MiB. Computed, both would sign in.
    const overBudget: Record<string, [string, string]> = {
      'slow-bcrypt@budget.test': [await bcrypt.hash(PASSWORD, 15), 'bcrypt'],
      'big-argon@budget.test': [
        await argon2.hash(PASSWORD, {
          type: argon2.argon2id,
          memoryCost: 262144,
          timeCost: 1,
          parallelism: 1,
        }),
        'argon2',
      ],
    };
    for (const [email, [hash, scheme]] of Object.entries(overBudget)) {
      const user = await cp.dataSource.getRepository(User).findOneByOrFail({ email });
      await cp.dataSource.query(
        'UPDATE password_credentials SET password_hash = $1, scheme = $2 WHERE user_id = $3',
        [hash, scheme, user.id],
      );
    }
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const wrong = await signIn(a, 'plain@budget.test', 'not the password');
      const wrongBody = expectProblem(wrong, 401, 'invalid-credentials');
      for (const email of Object.keys(overBudget)) {
        for (const password of [PASSWORD, PASSWORD, 'not the password']) {
          const res = await signIn(a, email, password);
          const body = expectProblem(res, 401, 'invalid-credentials');
          expect([email, body.title, body.detail]).toEqual([
            email,
            wrongBody.title,
            wrongBody.detail,
          ]);
          expect(res.headers['set-cookie']).toBeUndefined();
        }
        // Still the stored hash: never replaced, as it never verified.
        expect([email, (await credentialOf(email)).passwordHash]).toEqual([
          email,
          overBudget[email][0],
        ]);
      }
      const logged = warn.mock.calls
        .map((c) => String(c[0]))
        .filter((m) => m.includes('over the work budget'));
      const slow = await cp.dataSource
        .getRepository(User)
        .findOneByOrFail({ email: 'slow-bcrypt@budget.test' });
      const big = await cp.dataSource
        .getRepository(User)
        .findOneByOrFail({ email: 'big-argon@budget.test' });
      expect(logged).toEqual([
        expect.stringMatching(new RegExp(`bcrypt .*user ${slow.id}.*cost 15`)),
        expect.stringMatching(new RegExp(`argon2 .*user ${big.id}.*m=262144 KiB`)),
      ]);
    } finally {
      warn.mockRestore();
    }
    // The right password of a hash within the budget still signs in.
    expect((await signIn(a, 'plain@budget.test', PASSWORD)).status).toBe(200);
  });

  it("answers 503 with Retry-After at PASSWORD_HASH_QUEUE_TIMEOUT_MS to a check queued behind its project's expensive hash, before that hash is done, while another project's sign-ins succeed", async () => {
    const expensive = await bcrypt.hash(PASSWORD, 14);
    const cheap = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 19456,
      timeCost: 2,
    });
    const flood = ['b1', 'b2', 'b3', 'b4'].map((n) => `${n}@bravo.test`);
    expect(
      (
        await importLines(
          b,
          tokenB,
          flood.map((email) => ({ email, email_verified: true, password_hash: expensive })),
        )
      ).body.counts.created,
    ).toBe(4);
    expect(
      (
        await importLines(a, tokenA, [
          { email: 'ada@acme.test', email_verified: true, password_hash: cheap },
        ])
      ).body.counts.created,
    ).toBe(1);
    const signedUp = await runtime
      .http()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', a.projectKey)
      .set('X-Forwarded-For', '198.51.100.7')
      .send({ email: 'own@acme.test', password: PASSWORD });
    expect(signedUp.status).toBe(201);

    const started = Date.now();
    const answeredAt: Record<string, number> = {};
    const timed = (name: string, req: Promise<import('supertest').Response>) =>
      req.then((res) => ((answeredAt[name] = Date.now() - started), res));
    // B floods wrong passwords at its ~1 s hashes: one runs, three wait for B's turn.
    const bravo = flood.map((email) => timed(email, signIn(b, email, 'wrong password')));
    await new Promise((r) => setTimeout(r, 50));
    const acme = [
      timed('ada', signIn(a, 'ada@acme.test', PASSWORD)),
      timed('own', signIn(a, 'own@acme.test', PASSWORD)),
    ];
    const bravoAnswers = await Promise.all(bravo);
    const [ada, own] = await Promise.all(acme);

    // Which of B's four takes its project's one turn depends on the order they reach the queue
    // (they are sent together); exactly one does, and the other three are refused before it ends.
    expect(bravoAnswers.filter((r) => r.status === 401)).toHaveLength(1);
    const ran = bravoAnswers.findIndex((r) => r.status === 401);
    expectProblem(bravoAnswers[ran], 401, 'invalid-credentials');
    for (const [i, res] of bravoAnswers.entries()) {
      if (i === ran) continue;
      const body = expectProblem(res, 503, 'service-unavailable');
      expect(body.detail).toBe('Too many password checks at once; try again shortly.');
      expect(res.headers['retry-after']).toBe('1');
      // Refused by its own timer, at the deadline: not before it, and while B's only turn was still taken.
      const at = answeredAt[flood[i]];
      expect(at).toBeGreaterThanOrEqual(QUEUE_TIMEOUT_MS - 5);
      expect(at).toBeLessThan(answeredAt[flood[ran]]);
    }
    // A's imported hash had its own project's turn, and A's own bcrypt the other queue.
    expect([ada.status, ada.body.user?.email]).toEqual([200, 'ada@acme.test']);
    expect([own.status, own.body.user?.email]).toEqual([200, 'own@acme.test']);
    expect((await credentialOf('ada@acme.test')).scheme).toBe('bcrypt-sha256');
  });
});
