import { hostname } from 'node:os';
import { AuditEvent, Project } from '@gatehouse/entities';
import { OAUTH_PRIVATE_ADDRESS_MESSAGE } from '@gatehouse/outbound';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/**
 * SSRF (issue 20): provider URLs the server itself calls (`issuer` for discovery, `token_url`,
 * `userinfo_url`, GitHub's `emails_url`) are refused at PATCH when they name a literal address
 * or a host name that OAUTH_ALLOW_PRIVATE_URLS does not allow. Names are judged again, on the
 * addresses they resolve to, when the runtime connects (apps/auth-runtime/test/oauth-ssrf).
 */
describe('admin projects: OAuth provider URLs at private addresses', () => {
  let strict: TestApp; // OAUTH_ALLOW_PRIVATE_URLS=false
  let loose: TestApp; // loopback (the test default)
  let open: TestApp; // true
  let tenant: SeededTenant;
  let token: string;

  beforeAll(async () => {
    strict = await startTestApp(buildControlPlane, { OAUTH_ALLOW_PRIVATE_URLS: 'false' });
    loose = await startTestApp(buildControlPlane);
    open = await startTestApp(buildControlPlane, { OAUTH_ALLOW_PRIVATE_URLS: 'true' });
  });
  beforeEach(async () => {
    await strict.reset();
    tenant = await seedTenant(strict.app);
    token = (await mintAccessToken(strict.app, tenant.adminUserId)).token;
  });
  afterAll(async () => {
    await strict?.close();
    await loose?.close();
    await open?.close();
  });

  const path = () => `/v1/admin/projects/${tenant.project.id}`;
  const patch = (app: TestApp, body: unknown) =>
    app
      .http()
      .patch(path())
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const providers = (provider: string, fields: Record<string, unknown>) => ({
    settings: {
      oauth_providers: {
        [provider]: { enabled: true, client_id: 'cid', client_secret: 'a-secret', ...fields },
      },
    },
  });
  const storedSettings = async () =>
    (await strict.dataSource.getRepository(Project).findOneByOrFail({ id: tenant.project.id }))
      .settings;
  const updates = () =>
    strict.dataSource.getRepository(AuditEvent).countBy({ action: 'project.updated' });

  async function expectRefused(
    app: TestApp,
    provider: string,
    fields: Record<string, string>,
  ): Promise<void> {
    const before = await storedSettings();
    const res = await patch(app, providers(provider, fields));
    const problem = expectProblem(res, 400, 'validation-error', path());
    const expected = Object.fromEntries(
      Object.keys(fields).map((f) => [
        `settings.oauth_providers.${provider}.${f}`,
        [OAUTH_PRIVATE_ADDRESS_MESSAGE],
      ]),
    );
    expect({ fields, errors: problem.errors }).toEqual({ fields, errors: expected });
    expect(await storedSettings()).toEqual(before);
    expect(await updates()).toBe(0);
  }

  async function expectAccepted(
    app: TestApp,
    provider: string,
    fields: Record<string, string>,
  ): Promise<void> {
    const res = await patch(app, providers(provider, fields));
    expect({ fields, status: res.status }).toEqual({ fields, status: 200 });
    expect(res.body.settings.oauth_providers[provider]).toMatchObject(fields);
  }

  describe('with OAUTH_ALLOW_PRIVATE_URLS=false', () => {
    const refused = [
      'http://127.0.0.1/token',
      'http://127.0.0.1:4000/v1/auth/me',
      'http://10.0.0.1/token',
      'https://192.168.1.20/token',
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://[::1]/token',
      'http://[::ffff:10.0.0.1]/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://0.0.0.0:8080/',
      'http://0x7f000001/',
      'http://100.100.100.200/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata/',
      'http://localhost:8080/token',
      'http://localhost./token',
      'http://idp.localhost/token',
    ];

    it.each(['issuer', 'token_url', 'userinfo_url'])(
      'refuses %s at every literal private address and blocked name (400 on the field, nothing changes)',
      async (field) => {
        for (const url of refused) await expectRefused(strict, 'google', { [field]: url });
      },
    );

    it("refuses GitHub's emails_url, reports every refused field at once, and refuses them at project creation too", async () => {
      await expectRefused(strict, 'github', { emails_url: 'http://169.254.169.254/' });
      await expectRefused(strict, 'microsoft', {
        issuer: 'http://10.0.0.1/',
        token_url: 'http://[::1]/',
        userinfo_url: 'http://metadata.google.internal/',
      });

      const projects = await strict.dataSource.getRepository(Project).count();
      const res = await strict
        .http()
        .post('/v1/admin/projects')
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'Evil', ...providers('google', { token_url: 'http://169.254.169.254/' }) });
      const problem = expectProblem(res, 400, 'validation-error', '/v1/admin/projects');
      expect(problem.errors).toEqual({
        'settings.oauth_providers.google.token_url': [OAUTH_PRIVATE_ADDRESS_MESSAGE],
      });
      expect(await strict.dataSource.getRepository(Project).count()).toBe(projects);
    });

    it('accepts public addresses and host names (a name is judged on its resolved addresses when the runtime connects), and an authorization_url anywhere (only browsers go there)', async () => {
      await expectAccepted(strict, 'google', {
        issuer: 'https://idp.example.com',
        token_url: 'https://93.184.215.14/token',
        userinfo_url: `http://${hostname()}:8080/userinfo`,
        authorization_url: 'http://127.0.0.1:8080/authorize',
      });
    });
  });

  describe('with OAUTH_ALLOW_PRIVATE_URLS=loopback', () => {
    it('accepts loopback addresses and localhost', async () => {
      await expectAccepted(loose, 'google', {
        issuer: 'http://127.0.0.1:9000',
        token_url: 'http://localhost:9000/token',
        userinfo_url: 'http://[::1]:9000/userinfo',
      });
    });

    it('refuses link-local, metadata and every other private address', async () => {
      for (const url of [
        'http://169.254.169.254/',
        'http://169.254.1.1/',
        'http://[fe80::1]/',
        'http://metadata.google.internal/',
        'http://10.0.0.1/',
        'http://[fd00:ec2::254]/',
        'http://0.0.0.0/',
      ]) {
        await expectRefused(loose, 'google', { issuer: url });
      }
    });
  });

  describe('with OAUTH_ALLOW_PRIVATE_URLS=true', () => {
    it('accepts private and loopback addresses', async () => {
      await expectAccepted(open, 'google', {
        issuer: 'http://10.0.0.1',
        token_url: 'https://192.168.1.20/token',
        userinfo_url: 'http://127.0.0.1:9000/userinfo',
      });
    });

    it('still refuses cloud metadata endpoints and link-local addresses', async () => {
      for (const url of [
        'http://169.254.169.254/',
        'http://[::ffff:169.254.169.254]/',
        'http://169.254.170.2/v2/credentials',
        'http://[fd00:ec2::254]/',
        'http://100.100.100.200/latest/meta-data/',
        'http://metadata.google.internal/',
        'http://metadata.goog/',
        'http://instance-data/',
        'http://169.254.1.1/',
        'http://[fe80::1]/',
      ]) {
        await expectRefused(open, 'google', { issuer: url });
      }
    });
  });
});
