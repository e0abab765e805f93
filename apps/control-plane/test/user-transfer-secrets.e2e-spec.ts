import * as bcrypt from 'bcrypt';
import type { Response } from 'supertest';
import { AuditEvent, MfaFactor, PasswordCredential, Session, User } from '@gatehouse/entities';
import { seedTenant, startTestApp, type SeededTenant, type TestApp } from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the admin signs in and re-authenticates through the real auth runtime
import { buildAuthRuntime } from '../../auth-runtime/src/app-factory';
import { buildControlPlane } from '../src/app-factory';

const PASSWORD = 'correct horse battery staple';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** 32 s past the console project's default `reauthentication_max_age_seconds` (600 s); the access token (900 s) is still valid. */
const AGED_MS = 632_000;

/**
 * Issue 33 §4 and §5: exporting secrets, and an import that may overwrite credentials
 * (`on_conflict=update`), need the admin's recent proof of identity, as the runtime's sensitive
 * self-service actions do; plain exports and `skip`/`conflict` imports do not. Exports carry the
 * user's `status` and imports honour it. The admin signs in and re-authenticates through the real
 * auth runtime; both apps' test clocks move together.
 */
describe('user export and import: secrets need a recent proof; status survives the move', () => {
  let cp: TestApp;
  let runtime: TestApp;
  let tenant: SeededTenant;
  let token: string;

  const age = (ms: number) => {
    cp.clock.advance(ms);
    runtime.clock.advance(ms);
  };
  const importLines = (projectId: string, lines: object[], query = '', bearer = token) =>
    cp
      .http()
      .post(`/v1/admin/projects/${projectId}/users/import${query}`)
      .set('Authorization', `Bearer ${bearer}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const exportUsers = (projectId: string, query = '', bearer = token) =>
    cp
      .http()
      .get(`/v1/admin/projects/${projectId}/users/export${query}`)
      .set('Authorization', `Bearer ${bearer}`);
  const signIn = (projectKey: string, identifier: string, password: string) =>
    runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', projectKey)
      .set('X-Forwarded-For', `198.51.100.${Math.floor(Math.random() * 250)}`)
      .send({ identifier, password });
  const expectReauthenticationRequired = (res: Response, path: string) => {
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'https://gatehouse.dev/problems/reauthentication-required',
      title: 'Reauthentication Required',
      status: 403,
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      instance: path,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_age_seconds: 600,
    });
  };
  const auditCount = (action: string) =>
    cp.dataSource.getRepository(AuditEvent).countBy({ action, projectId: tenant.project.id });
  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
    runtime = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await cp.reset();
    runtime.clock.reset();
    tenant = await seedTenant(cp.app);
    // The admin signs in to the console project: the token's auth_time is now.
    const signedIn = await signIn(tenant.consoleKey, tenant.adminEmail, tenant.adminPassword);
    expect(signedIn.status).toBe(200);
    token = signedIn.body.session.access_token as string;
  });
  afterAll(async () => {
    await runtime.close();
    await cp.close();
  });

  it('an aged admin token is refused an export with password hashes (403 reauthentication-required, nothing audited or sent) but may export without them', async () => {
    expect(
      (
        await importLines(tenant.project.id, [
          {
            email: 'kim@transfer.test',
            password_hash: await bcrypt.hash(PASSWORD, 10),
            totp_secret: TOTP_SECRET,
          },
        ])
      ).status,
    ).toBe(200);
    age(AGED_MS);

    const path = `/v1/admin/projects/${tenant.project.id}/users/export`;
    const refused = await exportUsers(tenant.project.id, '?include_password_hashes=true');
    expectReauthenticationRequired(refused, path);
    expect(refused.text).not.toMatch(/password_hash|totp_secret|\$2b\$/);
    expect(await auditCount('users.exported_with_secrets')).toBe(0);

    const plain = await exportUsers(tenant.project.id);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(lines(plain.text)).toEqual([
      expect.objectContaining({ email: 'kim@transfer.test', status: 'active' }),
    ]);
    expect(plain.text).not.toMatch(/password_hash|totp_secret/);
    expect(await auditCount('users.exported')).toBe(1);
    // include_password_hashes=false is a plain export too.
    expect((await exportUsers(tenant.project.id, '?include_password_hashes=false')).status).toBe(
      200,
    );
  });

  it('an aged admin token is refused an on_conflict=update import before any line is read (403, nothing written), but may import with skip and conflict', async () => {
    const oldHash = await bcrypt.hash(PASSWORD, 10);
    expect(
      (
        await importLines(tenant.project.id, [
          {
            email: 'kim@transfer.test',
            external_id: 'k-1',
            password_hash: oldHash,
            metadata: { v: 1 },
          },
        ])
      ).status,
    ).toBe(200);
    const kim = await cp.dataSource
      .getRepository(User)
      .findOneByOrFail({ email: 'kim@transfer.test' });
    age(AGED_MS);

    const path = `/v1/admin/projects/${tenant.project.id}/users/import`;
    const update = [
      {
        email: 'kim@transfer.test',
        external_id: 'k-1',
        password_hash: await bcrypt.hash('the attacker password', 10),
        totp_secret: TOTP_SECRET,
        metadata: { v: 2 },
      },
      { email: 'new@transfer.test', password_hash: await bcrypt.hash(PASSWORD, 10) },
    ];
    expectReauthenticationRequired(
      await importLines(tenant.project.id, update, '?on_conflict=update'),
      path,
    );
    // A line that only changes metadata is refused all the same: the decision is made before any line is read.
    expectReauthenticationRequired(
      await importLines(
        tenant.project.id,
        [{ email: 'kim@transfer.test', metadata: { v: 3 } }],
        '?on_conflict=update',
      ),
      path,
    );
    // Nothing was written: the same password, no second factor, no new user, the old metadata, no users.imported for the refused calls.
    expect(
      (await cp.dataSource.getRepository(PasswordCredential).findOneByOrFail({ userId: kim.id }))
        .passwordHash,
    ).toBe(oldHash);
    expect(await cp.dataSource.getRepository(MfaFactor).countBy({ userId: kim.id })).toBe(0);
    expect(await cp.dataSource.getRepository(User).countBy({ email: 'new@transfer.test' })).toBe(0);
    expect(
      (await cp.dataSource.getRepository(User).findOneByOrFail({ id: kim.id })).metadata,
    ).toEqual({ v: 1 });
    expect(await auditCount('users.imported')).toBe(1);
    expect(
      (await signIn(tenant.projectKey, 'kim@transfer.test', 'the attacker password')).status,
    ).toBe(401);

    // skip and conflict never overwrite credentials: no fresh proof needed.
    const skip = await importLines(tenant.project.id, update, '?on_conflict=skip');
    expect(skip.status).toBe(200);
    expect(skip.body).toEqual({
      counts: { created: 1, updated: 0, skipped: 1, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const byDefault = await importLines(tenant.project.id, [{ email: 'default@transfer.test' }]);
    expect(byDefault.body).toEqual({
      counts: { created: 1, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const conflict = await importLines(
      tenant.project.id,
      [update[0], { email: 'third@transfer.test' }],
      '?on_conflict=conflict',
    );
    expect(conflict.status).toBe(200);
    expect(conflict.body).toEqual({
      counts: { created: 1, updated: 0, skipped: 0, conflicts: 1, rejected: 0 },
      errors: [
        { line: 1, type: 'conflict', detail: 'A user with this email or external id exists.' },
      ],
    });
    // Kim's password is still the old one after all of these.
    expect(
      (await cp.dataSource.getRepository(PasswordCredential).findOneByOrFail({ userId: kim.id }))
        .passwordHash,
    ).toBe(oldHash);
    expect(await cp.dataSource.getRepository(MfaFactor).countBy({ userId: kim.id })).toBe(0);
  });

  it('a fresh proof (POST /v1/auth/reauthenticate with the password) lets the same session export with hashes and import with update', async () => {
    expect(
      (
        await importLines(tenant.project.id, [
          {
            email: 'kim@transfer.test',
            external_id: 'k-1',
            password_hash: await bcrypt.hash(PASSWORD, 10),
          },
        ])
      ).status,
    ).toBe(200);
    age(AGED_MS);
    expect((await exportUsers(tenant.project.id, '?include_password_hashes=true')).status).toBe(
      403,
    );

    const reauth = await runtime
      .http()
      .post('/v1/auth/reauthenticate')
      .set('X-Service-Project-Key', tenant.consoleKey)
      .set('Authorization', `Bearer ${token}`)
      .send({ password: tenant.adminPassword });
    expect(reauth.status).toBe(200);
    const fresh = reauth.body.access_token as string;

    const full = await exportUsers(tenant.project.id, '?include_password_hashes=true', fresh);
    expect(full.status).toBe(200);
    expect(lines(full.text)).toEqual([
      expect.objectContaining({
        email: 'kim@transfer.test',
        status: 'active',
        password_hash: expect.stringMatching(/^\$2b\$10\$/),
      }),
    ]);
    expect(await auditCount('users.exported_with_secrets')).toBe(1);

    const newPassword = 'a new password from the old system';
    const update = await importLines(
      tenant.project.id,
      [
        {
          email: 'kim@transfer.test',
          external_id: 'k-1',
          password_hash: await bcrypt.hash(newPassword, 10),
          totp_secret: TOTP_SECRET,
        },
      ],
      '?on_conflict=update',
      fresh,
    );
    expect(update.status).toBe(200);
    expect(update.body).toEqual({
      counts: { created: 0, updated: 1, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const kim = await cp.dataSource
      .getRepository(User)
      .findOneByOrFail({ email: 'kim@transfer.test' });
    expect(
      await cp.dataSource
        .getRepository(MfaFactor)
        .countBy({ userId: kim.id, type: 'totp', status: 'enabled' }),
    ).toBe(1);
    expect((await signIn(tenant.projectKey, 'kim@transfer.test', newPassword)).body).toMatchObject({
      mfa_required: true,
    });

    // The proof ages again like any other: the renewed token is refused once it is old.
    age(AGED_MS);
    expectReauthenticationRequired(
      await exportUsers(tenant.project.id, '?include_password_hashes=true', fresh),
      `/v1/admin/projects/${tenant.project.id}/users/export`,
    );
  });

  it('export carries status and import honours it: a disabled user comes back disabled and cannot sign in; update disables but never re-enables', async () => {
    const hash = await bcrypt.hash(PASSWORD, 10);
    expect(
      (
        await importLines(tenant.project.id, [
          { email: 'ada@transfer.test', password_hash: hash },
          { email: 'bob@transfer.test', password_hash: hash, totp_secret: TOTP_SECRET },
        ])
      ).body.counts.created,
    ).toBe(2);
    const bob = await cp.dataSource
      .getRepository(User)
      .findOneByOrFail({ email: 'bob@transfer.test' });
    const disabled = await cp
      .http()
      .patch(`/v1/admin/users/${bob.id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status: 'disabled' });
    expect([disabled.status, disabled.body.status]).toEqual([200, 'disabled']);

    const exported = await exportUsers(tenant.project.id, '?include_password_hashes=true');
    expect(exported.status).toBe(200);
    const byEmail = Object.fromEntries(lines(exported.text).map((l) => [l.email, l]));
    expect([byEmail['ada@transfer.test'].status, byEmail['bob@transfer.test'].status]).toEqual([
      'active',
      'disabled',
    ]);

    // Into another project: bob is disabled there too (the line goes one by one, and in bulk for ada).
    const fresh = await cp
      .http()
      .post('/v1/admin/projects')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'Fresh' });
    expect(fresh.status).toBe(201);
    const back = await importLines(fresh.body.id as string, Object.values(byEmail));
    expect(back.body).toEqual({
      counts: { created: 2, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const key = fresh.body.publishable_key as string;
    const statusIn = async (projectId: string, email: string) =>
      (await cp.dataSource.getRepository(User).findOneByOrFail({ projectId, email })).status;
    expect([
      await statusIn(fresh.body.id as string, 'ada@transfer.test'),
      await statusIn(fresh.body.id as string, 'bob@transfer.test'),
    ]).toEqual(['active', 'disabled']);
    expect((await signIn(key, 'ada@transfer.test', PASSWORD)).status).toBe(200);
    const refused = await signIn(key, 'bob@transfer.test', PASSWORD);
    expect([refused.status, refused.body.type]).toEqual([
      403,
      'https://gatehouse.dev/problems/account-disabled',
    ]);
    // A plain (bulk) new user with status disabled is created disabled too; a status outside the two is refused on its line.
    const more = await importLines(fresh.body.id as string, [
      { email: 'cy@transfer.test', status: 'disabled' },
      { email: 'dee@transfer.test', status: 'banned' },
    ]);
    expect(more.body).toEqual({
      counts: { created: 1, updated: 0, skipped: 0, conflicts: 0, rejected: 1 },
      errors: [
        {
          line: 2,
          type: 'validation-error',
          detail: expect.any(String),
          errors: { status: ['must be active or disabled'] },
        },
      ],
    });
    expect(await statusIn(fresh.body.id as string, 'cy@transfer.test')).toBe('disabled');

    // on_conflict=update: disabled in the source disables here and ends the user's sessions, even for a user who signed in here...
    const adaSignIn = await signIn(key, 'ada@transfer.test', PASSWORD);
    expect(adaSignIn.status).toBe(200);
    const adaUser = await cp.dataSource
      .getRepository(User)
      .findOneByOrFail({ projectId: fresh.body.id as string, email: 'ada@transfer.test' });
    const update = await importLines(
      fresh.body.id as string,
      [{ ...byEmail['ada@transfer.test'], status: 'disabled' }],
      '?on_conflict=update',
    );
    expect(update.body).toEqual({
      counts: { created: 0, updated: 1, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    expect(await statusIn(fresh.body.id as string, 'ada@transfer.test')).toBe('disabled');
    const live = await cp.dataSource.getRepository(Session).findBy({ userId: adaUser.id });
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    const me = await runtime
      .http()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', key)
      .set('Authorization', `Bearer ${adaSignIn.body.session.access_token as string}`);
    // The session's access token is dead at once: /me finds no live session behind it.
    expect([me.status, me.body]).toEqual([200, { user: null }]);
    expect((await signIn(key, 'ada@transfer.test', PASSWORD)).status).toBe(403);
    // ...but an update line saying active (or saying nothing) never re-enables a disabled user: enabling is an admin's act.
    const again = await importLines(
      fresh.body.id as string,
      [
        { ...byEmail['bob@transfer.test'], status: 'active' },
        { email: 'cy@transfer.test', metadata: { v: 1 } },
      ],
      '?on_conflict=update',
    );
    expect(again.body.counts).toEqual({
      created: 0,
      updated: 2,
      skipped: 0,
      conflicts: 0,
      rejected: 0,
    });
    expect([
      await statusIn(fresh.body.id as string, 'bob@transfer.test'),
      await statusIn(fresh.body.id as string, 'cy@transfer.test'),
    ]).toEqual(['disabled', 'disabled']);
  });
});
