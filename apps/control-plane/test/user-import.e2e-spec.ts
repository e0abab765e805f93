import { execFileSync } from 'node:child_process';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import { Like } from 'typeorm';
import {
  AuditEvent,
  OAuthIdentity,
  OutboxEvent,
  PasswordCredential,
  User,
} from '@gatehouse/entities';
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
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function python(code: string): string {
  return execFileSync('python3', ['-c', code], { encoding: 'utf8' }).trim();
}

/**
 * User import and export (docs/api-contract.md §12) against the real control plane and auth runtime: users in
 * every hash scheme (each hash made by its scheme's reference implementation) sign in with their
 * old password and are then stored in ours; broken lines are reported while the rest go in; each
 * on_conflict mode; an export imported into a fresh project signs everyone in again, with TOTP.
 */
describe('user import and export', () => {
  let cp: TestApp;
  let runtime: TestApp;
  let tenant: SeededTenant;
  let token: string;

  const importLines = (projectId: string, lines: (object | string)[], query = '') =>
    cp
      .http()
      .post(`/v1/admin/projects/${projectId}/users/import${query}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  const signIn = (projectKey: string, identifier: string, password: string) =>
    runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', `198.51.100.${Math.floor(Math.random() * 250)}`)
      .send({ identifier, password });
  const schemeOf = async (email: string) => {
    const user = await cp.dataSource.getRepository(User).findOneByOrFail({ email });
    return (
      await cp.dataSource.getRepository(PasswordCredential).findOneByOrFail({ userId: user.id })
    ).scheme;
  };

  beforeAll(async () => {
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
    runtime = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await cp.reset();
    tenant = await seedTenant(cp.app);
    token = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
  });
  afterAll(async () => {
    await runtime.close();
    await cp.close();
  });

  it('imports one user per hash scheme; each signs in with the old password once, is then stored in ours, and a wrong password stays wrong', async () => {
    const pbkdf2 = python(`import hashlib,base64
dk=hashlib.pbkdf2_hmac('sha256', ${JSON.stringify(PASSWORD)}.encode(), b'Xy1QnBC4cb3p', 600000)
print('pbkdf2_sha256$600000$Xy1QnBC4cb3p$'+base64.b64encode(dk).decode())`);
    const scrypt = python(`import hashlib,base64
salt=b'0123456789abcdef'
dk=hashlib.scrypt(${JSON.stringify(PASSWORD)}.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
b=lambda x: base64.b64encode(x).decode().rstrip('=')
print('$scrypt$ln=14,r=8,p=1$'+b(salt)+'$'+b(dk))`);
    const sha512 = python(`import hashlib
print(hashlib.sha512(('NaCl'+${JSON.stringify(PASSWORD)}).encode()).hexdigest())`);
    const users: [string, unknown, string][] = [
      [
        'bcrypt@import.test',
        (await bcrypt.hash(PASSWORD, 10)).replace(/^\$2b\$/, '$2y$'),
        PASSWORD,
      ],
      [
        'argon2@import.test',
        await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2 }),
        PASSWORD,
      ],
      ['scrypt@import.test', scrypt, PASSWORD],
      ['django@import.test', pbkdf2, PASSWORD],
      [
        'firebase@import.test',
        {
          algorithm: 'firebase_scrypt',
          hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
          salt: '42xEC+ixf3L2lw==',
        },
        'user1password',
      ],
      [
        'sha512@import.test',
        {
          algorithm: 'sha512',
          hash: sha512,
          salt: 'NaCl',
          salt_position: 'prefix',
          encoding: 'hex',
        },
        PASSWORD,
      ],
    ];
    const firebase =
      '&signer_key=' +
      encodeURIComponent(
        'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
      ) +
      '&salt_separator=Bw%3D%3D&rounds=8&mem_cost=14';
    const res = await importLines(
      tenant.project.id,
      users.map(([email, password_hash]) => ({ email, email_verified: true, password_hash })),
      `?allow_weak_hashes=true${firebase}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      counts: { created: 6, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });

    for (const [email, , password] of users) {
      const before = await schemeOf(email);
      expect([email, before]).not.toEqual([email, 'bcrypt-sha256']);
      expect([email, (await signIn(tenant.projectKey, email, `${password}x`)).status]).toEqual([
        email,
        401,
      ]);
      expect([email, (await signIn(tenant.projectKey, email, password)).status]).toEqual([
        email,
        200,
      ]);
      expect([email, await schemeOf(email)]).toEqual([email, 'bcrypt-sha256']);
      // Now in our scheme: the same password still works, another still does not.
      expect([email, (await signIn(tenant.projectKey, email, password)).status]).toEqual([
        email,
        200,
      ]);
      expect([
        email,
        (await signIn(tenant.projectKey, email, 'not the password at all')).status,
      ]).toEqual([email, 401]);
    }
    // One audit event with the counts (and the weak hashes it let in); no user.created flood without emit_events.
    const audit = await cp.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'users.imported' });
    expect(audit.map((a) => a.metadata)).toEqual([
      expect.objectContaining({
        counts: { created: 6, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
        weak_hashes: 1,
      }),
    ]);
    expect(
      await cp.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'user.created', projectId: tenant.project.id }),
    ).toBe(0);
  });

  it('reports each broken line by number and type, and imports the rest; a weak hash without allow_weak_hashes is refused', async () => {
    const res = await importLines(tenant.project.id, [
      { email: 'one@import.test' },
      '{not json',
      { email: 'not an email' },
      { email: 'two@import.test', unknown_field: 1 },
      '',
      { email: 'three@import.test', password_hash: 'plaintext-password' },
      {
        email: 'four@import.test',
        password_hash: { algorithm: 'md5', hash: '5f4dcc3b5aa765d61d8327deb882cf99' },
      },
      { email: 'five@import.test', totp_secret: 'short' },
      {
        email: 'six@import.test',
        username: 'six',
        metadata: { plan: 'pro' },
        created_at: '2019-05-01T10:00:00Z',
        external_id: 'auth0|6',
      },
      `{"email":"big@import.test","metadata":{"x":"${'y'.repeat(70_000)}"}}`,
    ]);
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({
      created: 2,
      updated: 0,
      skipped: 0,
      conflicts: 0,
      rejected: 7,
    });
    expect(res.body.errors.map((e: { line: number; type: string }) => [e.line, e.type])).toEqual([
      [2, 'invalid-json'],
      [3, 'validation-error'],
      [4, 'validation-error'],
      [6, 'validation-error'],
      [7, 'validation-error'],
      [8, 'validation-error'],
      [10, 'payload-too-large'],
    ]);
    expect(res.body.errors[1].errors).toEqual({ email: ['must be a valid email address'] });
    expect(res.body.errors[4].errors.password_hash[0]).toMatch(/allow_weak_hashes/);
    const six = await cp.dataSource
      .getRepository(User)
      .findOneByOrFail({ email: 'six@import.test' });
    expect([six.username, six.metadata, six.externalId, six.createdAt.toISOString()]).toEqual([
      'six',
      { plan: 'pro' },
      'auth0|6',
      '2019-05-01T10:00:00.000Z',
    ]);
  });

  it('on_conflict=update leaves the email, username, password, MFA and identities of a user who signed in here alone (an old export cannot bring back what they replaced), and still updates their metadata', async () => {
    await importLines(tenant.project.id, [
      {
        email: 'grace@import.test',
        external_id: 'ext-g',
        username: 'grace',
        email_verified: true,
        password_hash: await bcrypt.hash(PASSWORD, 10),
      },
    ]);
    // Grace signs in here: from now on her account is hers.
    expect((await signIn(tenant.projectKey, 'grace@import.test', PASSWORD)).status).toBe(200);
    const old = 'an old password from a leaked export';
    // An old export: matched by external id, with another (old) address, a username, a password, TOTP and an identity.
    const update = await importLines(
      tenant.project.id,
      [
        {
          email: 'grace.old@import.test',
          external_id: 'ext-g',
          username: 'gh_old',
          email_verified: false,
          metadata: { team: 'navy' },
          password_hash: await bcrypt.hash(old, 10),
          totp_secret: TOTP_SECRET,
          identities: [{ provider: 'github', subject: '1906' }],
        },
      ],
      '?on_conflict=update',
    );
    expect(update.body).toEqual({
      counts: { created: 0, updated: 1, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const grace = await cp.dataSource.getRepository(User).findOneByOrFail({ externalId: 'ext-g' });
    expect([grace.email, grace.username, grace.emailVerified, grace.metadata]).toEqual([
      'grace@import.test',
      'grace',
      true,
      { team: 'navy' },
    ]);
    expectProblem(
      await signIn(tenant.projectKey, 'grace@import.test', old),
      401,
      'invalid-credentials',
    );
    const again = await signIn(tenant.projectKey, 'grace@import.test', PASSWORD);
    expect([again.status, again.body.mfa_required]).toEqual([200, undefined]);
    expect(await cp.dataSource.getRepository(OAuthIdentity).countBy({ userId: grace.id })).toBe(0);
    // A line with only her metadata changes nothing of her account: not counted as kept.
    const metadataOnly = await importLines(
      tenant.project.id,
      [{ email: 'grace@import.test', external_id: 'ext-g', metadata: { team: 'army' } }],
      '?on_conflict=update',
    );
    expect(metadataOnly.body.counts).toMatchObject({ updated: 1 });
    const audit = await cp.dataSource.getRepository(AuditEvent).find({
      where: { projectId: tenant.project.id, action: 'users.imported' },
      order: { createdAt: 'ASC' },
    });
    expect(audit.slice(-2).map((a) => a.metadata.credentials_kept)).toEqual([1, 0]);
  });

  it('two imports of the same users at once, in opposite orders (plain users in bulk, some with identities line by line): no error, each user written once, every line counted once in each mode', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => ({
      email: `c${i}@import.test`,
      external_id: `c-${i}`,
      ...(i % 10 === 0 ? { identities: [{ provider: 'github', subject: `c${i}` }] } : {}),
    }));
    for (const mode of ['skip', 'update', 'conflict'] as const) {
      await cp.dataSource.query(
        `DELETE FROM users WHERE project_id = $1 AND email LIKE 'c%@import.test'`,
        [tenant.project.id],
      );
      const [forward, backward] = await Promise.all([
        importLines(tenant.project.id, lines, `?on_conflict=${mode}`),
        importLines(tenant.project.id, [...lines].reverse(), `?on_conflict=${mode}`),
      ]);
      expect([mode, forward.status, backward.status]).toEqual([mode, 200, 200]);
      const sum = (key: string) =>
        (forward.body.counts[key] as number) + (backward.body.counts[key] as number);
      const other = { skip: 'skipped', update: 'updated', conflict: 'conflicts' }[mode];
      expect([mode, sum('created'), sum(other), sum('rejected')]).toEqual([mode, 300, 300, 0]);
      // Only the conflict mode reports lines, each as a conflict.
      const errors = [...forward.body.errors, ...backward.body.errors] as { type: string }[];
      expect([mode, errors.length, errors.every((e) => e.type === 'conflict')]).toEqual([
        mode,
        mode === 'conflict' ? 300 : 0,
        true,
      ]);
      expect(
        await cp.dataSource
          .getRepository(User)
          .countBy({ projectId: tenant.project.id, email: Like('c%@import.test') }),
      ).toBe(300);
      expect(
        await cp.dataSource.getRepository(OAuthIdentity).countBy({ projectId: tenant.project.id }),
      ).toBe(30);
    }
  });

  it('on_conflict: skip leaves the user, update replaces the given fields, conflict reports the line; the email and external id find the user', async () => {
    await importLines(tenant.project.id, [
      { email: 'ada@import.test', external_id: 'ext-1', metadata: { v: 1 } },
    ]);
    const skip = await importLines(tenant.project.id, [
      { email: 'ADA@import.test', metadata: { v: 2 } },
    ]);
    expect(skip.body.counts).toMatchObject({ created: 0, skipped: 1 });
    const conflict = await importLines(
      tenant.project.id,
      [{ email: 'other@import.test', external_id: 'ext-1' }],
      '?on_conflict=conflict',
    );
    expect(conflict.body.counts).toMatchObject({ conflicts: 1 });
    expect(conflict.body.errors).toEqual([
      { line: 1, type: 'conflict', detail: 'A user with this email or external id exists.' },
    ]);
    const update = await importLines(
      tenant.project.id,
      [
        {
          email: 'ada@import.test',
          external_id: 'ext-1',
          metadata: { v: 3 },
          email_verified: true,
          password_hash: await bcrypt.hash(PASSWORD, 10),
        },
      ],
      '?on_conflict=update',
    );
    expect(update.body.counts).toMatchObject({ updated: 1 });
    const ada = await cp.dataSource.getRepository(User).findOneByOrFail({ externalId: 'ext-1' });
    expect([ada.metadata, ada.emailVerified]).toEqual([{ v: 3 }, true]);
    expect((await signIn(tenant.projectKey, 'ada@import.test', PASSWORD)).status).toBe(200);
    // The email of one user and the external id of another: a conflict in every mode.
    await importLines(tenant.project.id, [{ email: 'bob@import.test', external_id: 'ext-2' }]);
    const crossed = await importLines(
      tenant.project.id,
      [{ email: 'bob@import.test', external_id: 'ext-1' }],
      '?on_conflict=update',
    );
    expect(crossed.body.errors).toEqual([
      {
        line: 1,
        type: 'conflict',
        detail: 'The email and the external id name two different users.',
      },
    ]);
    // A username another user has: that line is a conflict, nothing of it is written.
    await importLines(tenant.project.id, [{ email: 'carol@import.test', username: 'carol' }]);
    const taken = await importLines(tenant.project.id, [
      {
        email: 'dan@import.test',
        username: 'Carol',
        identities: [{ provider: 'github', subject: '42' }],
      },
    ]);
    expect(taken.body.counts).toMatchObject({ created: 0, conflicts: 1 });
    expect(await cp.dataSource.getRepository(User).countBy({ email: 'dan@import.test' })).toBe(0);
    expect(await cp.dataSource.getRepository(OAuthIdentity).countBy({ subject: '42' })).toBe(0);
    // Two new users of one batch with the same username (written together, then one by one): the second is the conflict.
    const twins = await importLines(tenant.project.id, [
      { email: 'twin1@import.test', username: 'twin' },
      { email: 'twin2@import.test', username: 'TWIN' },
      { email: 'solo@import.test' },
    ]);
    expect(twins.body.counts).toMatchObject({ created: 2, conflicts: 1 });
    expect(twins.body.errors.map((e: { line: number }) => e.line)).toEqual([2]);
    // The same email twice in one file: the second line meets the first as an existing user.
    const again = await importLines(
      tenant.project.id,
      [{ email: 'echo@import.test' }, { email: 'ECHO@import.test' }],
      '?on_conflict=conflict',
    );
    expect(again.body.counts).toMatchObject({ created: 1, conflicts: 1 });
  });

  it("emits user.created per user only with emit_events, and refuses what is not NDJSON, another tenant's project and bad options", async () => {
    const res = await importLines(
      tenant.project.id,
      [{ email: 'e1@import.test' }, { email: 'e2@import.test' }],
      '?emit_events=true',
    );
    expect(res.body.counts.created).toBe(2);
    expect(
      await cp.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'user.created', projectId: tenant.project.id }),
    ).toBe(2);
    const other = await seedTenant(cp.app, 'Other');
    expectProblem(
      await importLines(other.project.id, [{ email: 'x@import.test' }]),
      404,
      'not-found',
    );
    expect(await cp.dataSource.getRepository(User).countBy({ email: 'x@import.test' })).toBe(0);
    expectProblem(
      await cp
        .http()
        .post(`/v1/admin/projects/${tenant.project.id}/users/import`)
        .set('Authorization', `Bearer ${token}`)
        .send({ email: 'json@import.test' }),
      415,
      'unsupported-media-type',
    );
    expectProblem(
      await importLines(tenant.project.id, [{ email: 'y@import.test' }], '?on_conflict=maybe'),
      400,
      'validation-error',
    );
    expectProblem(
      await importLines(tenant.project.id, [{ email: 'y@import.test' }], '?signer_key=abc'),
      400,
      'validation-error',
    );
    expectProblem(
      await cp
        .http()
        .post(`/v1/admin/projects/${tenant.project.id}/users/import`)
        .set('Content-Type', 'application/x-ndjson')
        .send('{"email":"z@import.test"}\n'),
      401,
      'unauthenticated',
    );
    expect(await cp.dataSource.getRepository(User).countBy({ email: 'z@import.test' })).toBe(0);
  });

  it('export → import into a fresh project: every user signs in with the old password, TOTP and social identities restored; hashes only when asked, audited', async () => {
    await importLines(tenant.project.id, [
      {
        email: 'pat@import.test',
        email_verified: true,
        username: 'pat',
        password_hash: await bcrypt.hash(PASSWORD, 10),
        totp_secret: TOTP_SECRET,
        identities: [{ provider: 'github', subject: '9001', email: 'pat@import.test' }],
        metadata: { team: 'a' },
      },
      { email: 'sam@import.test', password_hash: await argon2.hash(PASSWORD) },
    ]);
    // sam signs in once: the hash is now ours (bcrypt-sha256) and exports as such.
    expect((await signIn(tenant.projectKey, 'sam@import.test', PASSWORD)).status).toBe(200);

    const plain = await cp
      .http()
      .get(`/v1/admin/projects/${tenant.project.id}/users/export`)
      .set('Authorization', `Bearer ${token}`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const plainLines = plain.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(plainLines.map((l) => l.email).sort()).toEqual(['pat@import.test', 'sam@import.test']);
    expect(plain.text).not.toMatch(/password_hash|totp_secret/);

    const full = await cp
      .http()
      .get(`/v1/admin/projects/${tenant.project.id}/users/export?include_password_hashes=true`)
      .set('Authorization', `Bearer ${token}`);
    expect(full.status).toBe(200);
    const lines = full.text.trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { password_hash: unknown }).password_hash)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$2b\$/),
        { algorithm: 'bcrypt_sha256', hash: expect.stringMatching(/^\$2b\$/) },
      ]),
    );
    expect(
      await cp.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'users.exported_with_secrets' }),
    ).toBe(1);

    const fresh = await cp
      .http()
      .post('/v1/admin/projects')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'Fresh' });
    expect(fresh.status).toBe(201);
    const back = await importLines(fresh.body.id as string, lines);
    expect(back.body).toEqual({
      counts: { created: 2, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const key = fresh.body.publishable_key as string;
    expect((await signIn(key, 'sam@import.test', PASSWORD)).status).toBe(200);
    const pat = await signIn(key, 'pat', PASSWORD);
    expect(pat.body).toMatchObject({ mfa_required: true, available_factors: ['totp'] });
    const code = execFileSync('oathtool', [
      '--totp',
      '-b',
      TOTP_SECRET,
      '-N',
      `@${Math.floor(runtime.clock.nowMs() / 1000)}`,
    ])
      .toString()
      .trim();
    const verified = await runtime
      .http()
      .post('/v1/auth/mfa/verify')
      .set('X-Service-Project-Key', key)
      .send({ mfa_token: pat.body.mfa_token, factor: 'totp', code });
    expect(verified.status).toBe(200);
    const identity = await cp.dataSource
      .getRepository(OAuthIdentity)
      .findOneByOrFail({ projectId: fresh.body.id as string, provider: 'github', subject: '9001' });
    expect(identity.userId).toBe(verified.body.user.id);
    // Importing the same export again changes nothing (idempotent by email and external id).
    expect((await importLines(fresh.body.id as string, lines)).body.counts).toEqual({
      created: 0,
      updated: 0,
      skipped: 2,
      conflicts: 0,
      rejected: 0,
    });
  });
});
