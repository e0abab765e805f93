import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  AuditEvent,
  MfaFactor,
  OAuthIdentity,
  PasswordCredential,
  User,
} from '@gatehouse/entities';
import {
  seedTenant,
  startTestApp,
  TEST_DATABASE_URL,
  TEST_ENCRYPTION_KEY,
  type TestApp,
} from '@gatehouse/testing';
import { appFactory } from '../scripts/app-entries';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'libs/user-transfer/src/formats/fixtures');
/** Firebase's published scrypt test vector (the firebase-scrypt README): the project parameters of user1's hash. */
const FIREBASE = [
  '--signer-key',
  'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  '--salt-separator',
  'Bw==',
  '--rounds',
  '8',
  '--mem-cost',
  '14',
];

/** `npm run cli -- …` runs this compiled entry point (after `npm run build`). */
async function cli(...args: string[]): Promise<{ stdout: string; code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/tools/scripts/cli.js'), ...args],
      {
        cwd: ROOT,
        env: {
          // eslint-disable-next-line no-restricted-properties -- the child needs PATH
          PATH: process.env.PATH ?? '',
          DATABASE_URL: TEST_DATABASE_URL,
          ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          LOG_LEVEL: 'error',
        },
      },
    );
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/**
 * `users import` as an operator runs it, against the real database: vendor export files (the
 * converters' fixtures, in Auth0's and Firebase's published shapes) imported into a project, the
 * report printed, the users there; imported passwords then sign in through the real auth runtime.
 */
describe('CLI: users import', () => {
  let runtime: TestApp;
  const signIn = (projectKey: string, identifier: string, password: string) =>
    runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', `198.51.100.${Math.floor(Math.random() * 250)}`)
      .send({ identifier, password });
  const user = (projectId: string, email: string) =>
    runtime.dataSource.getRepository(User).findOneByOrFail({ projectId, email });
  const schemeOf = async (userId: string) =>
    (await runtime.dataSource.getRepository(PasswordCredential).findOneBy({ userId }))?.scheme ??
    null;

  beforeAll(async () => {
    runtime = await startTestApp(appFactory('auth-runtime'), { TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await runtime.close();
  });

  it('imports an Auth0 users export, then its password hashes export (joined by external id), and the user signs in with the old password', async () => {
    const tenant = await seedTenant(runtime.app);
    const project = tenant.project.id;
    const users = await cli(
      'users',
      'import',
      '--project',
      project,
      '--file',
      join(FIXTURES, 'auth0-users.ndjson'),
      '--format',
      'auth0',
      '--json',
    );
    expect(users.code).toBe(0);
    const report = JSON.parse(users.stdout) as {
      counts: Record<string, number>;
      errors: { line: number; type: string; detail: string }[];
    };
    expect(report.counts).toEqual({
      created: 5,
      updated: 0,
      skipped: 0,
      conflicts: 0,
      rejected: 2,
    });
    expect(report.errors).toEqual([
      { line: 7, type: 'validation-error', detail: expect.stringMatching(/has no email address/) },
      { line: 8, type: 'invalid-json', detail: 'The line is not valid JSON.' },
    ]);
    // Blocked in Auth0: here, but disabled (a correct password is answered account-disabled).
    expect(await user(project, 'mallory@example.com')).toMatchObject({
      status: 'disabled',
      externalId: 'auth0|64b0c0ffee0000000000a005',
    });
    const ada = await user(project, 'ada@example.com');
    expect(ada).toMatchObject({
      status: 'active',
      emailVerified: true,
      username: 'ada_l',
      externalId: 'auth0|64b0c0ffee0000000000a001',
      metadata: expect.objectContaining({ app_metadata: { plan: 'pro', roles: ['admin'] } }),
    });
    expect(ada.createdAt.toISOString()).toBe('2021-03-04T10:11:12.345Z');
    const identities = await runtime.dataSource
      .getRepository(OAuthIdentity)
      .findBy({ projectId: project });
    expect(identities.map((i) => [i.provider, i.subject]).sort()).toEqual([
      ['github', '9001'],
      ['google', '104729385610293847561'],
      ['microsoft', '4d0c0ffee5c0ffee'],
    ]);
    // Audited as the system's import, with the counts.
    expect(
      await runtime.dataSource
        .getRepository(AuditEvent)
        .findBy({ projectId: project, action: 'users.imported' }),
    ).toEqual([
      expect.objectContaining({
        actorType: 'system',
        actorId: null,
        userAgent: 'gatehouse-cli users import',
        metadata: expect.objectContaining({ counts: report.counts }),
      }),
    ]);
    // No hash yet: the users export carries none.
    expect(await schemeOf(ada.id)).toBeNull();

    const hashes = await cli(
      'users',
      'import',
      '--project',
      project,
      '--file',
      join(FIXTURES, 'auth0-password-hashes.ndjson'),
      '--format',
      'auth0',
      '--on-conflict',
      'update',
    );
    expect(hashes.code).toBe(0);
    expect(hashes.stdout).toBe('created: 0\nupdated: 2\nskipped: 0\nconflicts: 0\nrejected: 0\n');
    expect(await schemeOf(ada.id)).toBe('bcrypt');
    expect((await signIn(tenant.projectKey, 'ada@example.com', 'auth0 password 1')).status).toBe(
      200,
    );
    expect(await schemeOf(ada.id)).toBe('bcrypt-sha256');
  });

  it('imports a Firebase auth:export file: refused without the project scrypt parameters, in with them; the user signs in with user1password', async () => {
    const tenant = await seedTenant(runtime.app);
    const project = tenant.project.id;
    const file = join(FIXTURES, 'firebase-users.json');
    const without = await cli(
      'users',
      'import',
      '--project',
      project,
      '--file',
      file,
      '--format',
      'firebase',
      '--json',
    );
    expect(without.stderr).toMatch(/no Firebase scrypt parameters/);
    const first = JSON.parse(without.stdout) as {
      counts: Record<string, number>;
      errors: { line: number; type: string; detail: string; errors?: Record<string, string[]> }[];
    };
    expect(first.counts).toEqual({ created: 3, updated: 0, skipped: 0, conflicts: 0, rejected: 3 });
    expect(first.errors.map((e) => [e.line, e.errors?.password_hash ?? e.detail])).toEqual([
      [
        1,
        [
          'firebase_scrypt needs the project parameters signer_key, salt_separator, rounds and mem_cost',
        ],
      ],
      [4, expect.stringMatching(/pOnly4 has no email address/)],
      [
        6,
        [
          'firebase_scrypt needs the project parameters signer_key, salt_separator, rounds and mem_cost',
        ],
      ],
    ]);

    const again = await cli(
      'users',
      'import',
      '--project',
      project,
      '--file',
      file,
      '--format',
      'firebase',
      ...FIREBASE,
      '--json',
    );
    expect(JSON.parse(again.stdout).counts).toEqual({
      created: 2,
      updated: 0,
      skipped: 3,
      conflicts: 0,
      rejected: 1,
    });
    // Disabled in Firebase: disabled here.
    expect(await user(project, 'off@example.com')).toMatchObject({
      externalId: 'off5',
      status: 'disabled',
    });
    const user1 = await user(project, 'user1@example.com');
    expect(user1).toMatchObject({
      externalId: 'user1',
      emailVerified: true,
      metadata: { display_name: 'User One', custom_attributes: { role: 'editor' } },
    });
    expect(await schemeOf(user1.id)).toBe('firebase-scrypt');
    expect((await signIn(tenant.projectKey, 'user1@example.com', 'user1password-not')).status).toBe(
      401,
    );
    expect((await signIn(tenant.projectKey, 'user1@example.com', 'user1password')).status).toBe(
      200,
    );
    expect(await schemeOf(user1.id)).toBe('bcrypt-sha256');
    const grace = await user(project, 'grace@example.com');
    expect(
      (await runtime.dataSource.getRepository(OAuthIdentity).findBy({ userId: grace.id }))
        .map((i) => i.provider)
        .sort(),
    ).toEqual(['github', 'google']);

    // Firebase's SMS second factor stays one; the phone pUser3 signed in with does not become one
    // (every sign-in would ask a code they never had to give) unless the operator asks.
    const smsOf = async (email: string) =>
      (
        await runtime.dataSource
          .getRepository(MfaFactor)
          .findBy({ userId: (await user(project, email)).id })
      ).map((f) => [f.type, f.status, f.phoneNumber]);
    expect(await smsOf('mfa@example.com')).toEqual([['sms', 'enabled', '+14155550199']]);
    expect(await smsOf('phone@example.com')).toEqual([]);
    const mfaSignIn = await signIn(tenant.projectKey, 'mfa@example.com', 'user1password');
    expect([
      mfaSignIn.status,
      mfaSignIn.body.mfa_required,
      mfaSignIn.body.available_factors,
    ]).toEqual([200, true, ['sms']]);
    const phones = await cli(
      'users',
      'import',
      '--project',
      project,
      '--file',
      file,
      '--format',
      'firebase',
      ...FIREBASE,
      '--on-conflict',
      'update',
      '--login-phones',
      '--json',
    );
    expect(JSON.parse(phones.stdout).counts).toEqual({
      created: 0,
      updated: 5,
      skipped: 0,
      conflicts: 0,
      rejected: 1,
    });
    expect(await smsOf('phone@example.com')).toEqual([['sms', 'enabled', '+14155550100']]);
  });

  it('imports a Keycloak realm export: PBKDF2-SHA512, Argon2id and PBKDF2-SHA256 passwords sign in and are re-hashed, the authenticator app Keycloak set up keeps working, federated identities are linked', async () => {
    const tenant = await seedTenant(runtime.app);
    const project = tenant.project.id;
    const out = await cli(
      'users',
      'import',
      '--project',
      project,
      '--file',
      join(FIXTURES, 'keycloak-realm.json'),
      '--format',
      'keycloak',
    );
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n').slice(0, 5)).toEqual([
      'created: 4',
      'updated: 0',
      'skipped: 0',
      'conflicts: 0',
      'rejected: 2',
    ]);
    expect(await user(project, 'off@example.com')).toMatchObject({ status: 'disabled' });
    expect(out.stdout).toMatch(
      /user 4: validation-error: The user .* is the service account of client backend/,
    );
    for (const [email, password, scheme] of [
      ['grace@example.com', 'keycloak password 2', 'argon2'],
      ['linus@example.com', 'keycloak password 3', 'pbkdf2'],
    ] as const) {
      const u = await user(project, email);
      expect([email, await schemeOf(u.id)]).toEqual([email, scheme]);
      expect([email, (await signIn(tenant.projectKey, email, `${password}?`)).status]).toEqual([
        email,
        401,
      ]);
      expect([email, (await signIn(tenant.projectKey, email, password)).status]).toEqual([
        email,
        200,
      ]);
      expect([email, await schemeOf(u.id)]).toEqual([email, 'bcrypt-sha256']);
    }
    expect(
      (
        await runtime.dataSource
          .getRepository(OAuthIdentity)
          .findBy({ userId: (await user(project, 'grace@example.com')).id })
      )
        .map((i) => [i.provider, i.subject])
        .sort(),
    ).toEqual([
      ['github', '9001'],
      ['google', '104729385610293847561'],
    ]);

    // Ada has Keycloak's OTP: the code her app computes from the secret Keycloak gave it (its bytes, as hex to oathtool) completes the sign-in.
    const first = await signIn(tenant.projectKey, 'ada@example.com', 'keycloak password 1');
    expect([first.status, first.body.mfa_required, first.body.available_factors]).toEqual([
      200,
      true,
      ['totp'],
    ]);
    const seconds = Math.floor(runtime.clock.nowMs() / 1000);
    const code = execFileSync('oathtool', [
      '--totp',
      Buffer.from('abcdefghijklmnopqrst').toString('hex'),
      '-N',
      `@${seconds}`,
    ])
      .toString()
      .trim();
    const verified = await runtime
      .http()
      .post('/v1/auth/mfa/verify')
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ mfa_token: first.body.mfa_token, factor: 'totp', code });
    expect(verified.status).toBe(200);
    expect(await schemeOf((await user(project, 'ada@example.com')).id)).toBe('bcrypt-sha256');
  });

  it('imports a Cognito list-users export: profiles and federated identities, every user waiting for lazy migration (Cognito exports no hashes)', async () => {
    const tenant = await seedTenant(runtime.app);
    const project = tenant.project.id;
    const out = JSON.parse(
      (
        await cli(
          'users',
          'import',
          '--project',
          project,
          '--file',
          join(FIXTURES, 'cognito-users.json'),
          '--format',
          'cognito',
          '--json',
        )
      ).stdout,
    ) as { counts: Record<string, number> };
    expect(out.counts).toEqual({ created: 4, updated: 0, skipped: 0, conflicts: 0, rejected: 1 });
    expect(await user(project, 'off@example.com')).toMatchObject({ status: 'disabled' });
    const ada = await user(project, 'ada@example.com');
    expect(ada).toMatchObject({
      externalId: '3c5e1a2b-0000-4000-8000-00000000c001',
      emailVerified: true,
      needsMigration: true,
      metadata: { name: 'Ada Lovelace', custom: { plan: 'pro' } },
    });
    expect(await schemeOf(ada.id)).toBeNull();
    const grace = await user(project, 'grace@example.com');
    expect(
      (await runtime.dataSource.getRepository(OAuthIdentity).findBy({ userId: grace.id })).map(
        (i) => [i.provider, i.subject],
      ),
    ).toEqual([['google', '104729385610293847561']]);
    // No SMS factor from the phone without --login-phones.
    expect(await runtime.dataSource.getRepository(MfaFactor).countBy({ userId: ada.id })).toBe(0);
  });

  it('exits 1 with one line for a project or a file that is not there, 2 for bad arguments', async () => {
    const noProject = await cli(
      'users',
      'import',
      '--project',
      randomUUID(),
      '--file',
      join(FIXTURES, 'auth0-users.ndjson'),
      '--format',
      'auth0',
    );
    expect([noProject.code, noProject.stderr.trim().split('\n')]).toEqual([
      1,
      [expect.stringMatching(/^No project [0-9a-f-]{36}\.$/)],
    ]);
    expect(noProject.stdout).toBe('');
    const noFile = await cli(
      'users',
      'import',
      '--project',
      randomUUID(),
      '--file',
      join(FIXTURES, 'nothing-here.json'),
    );
    expect([noFile.code, noFile.stderr]).toEqual([
      1,
      expect.stringMatching(/^Cannot read .*nothing-here\.json: no such readable file\.\n$/),
    ]);
    const badFormat = await cli(
      'users',
      'import',
      '--project',
      randomUUID(),
      '--file',
      join(FIXTURES, 'auth0-users.ndjson'),
      '--format',
      'okta',
    );
    expect([badFormat.code, badFormat.stderr]).toEqual([
      2,
      expect.stringContaining(
        '--format must be one of gatehouse, auth0, firebase, supabase, clerk, cognito, keycloak.',
      ),
    ]);
    const ours = await cli(
      'users',
      'import',
      '--project',
      randomUUID(),
      '--file',
      join(FIXTURES, 'auth0-users.ndjson'),
      '--login-phones',
    );
    expect([ours.code, ours.stderr]).toEqual([
      2,
      expect.stringContaining('--login-phones applies to a vendor export'),
    ]);
  });
});
