import { randomUUID } from 'node:crypto';
import { Session } from '@gatehouse/entities';
import { AccessTokensService } from '@gatehouse/identity';
import {
  createUser,
  fuzzApi,
  fuzzSettings,
  mintAccessToken,
  seedTenant,
  startStandaloneTestApp,
  startTestApp,
  TEST_REDIS_URL,
  type FuzzMode,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/**
 * Schema-driven fuzzing of the control plane: every operation of its OpenAPI document, with the
 * fuzzer's own admin token and without, hostile values everywhere (libs/testing/src/fuzz). The
 * ids it may name in paths are its own tenant's and another tenant's (which must stay out of
 * reach). `npm test` runs a bounded slice; `npm run fuzz -- --seconds 600 --seed N` a longer one.
 */
// Once on PostgreSQL and Redis, once more (a shorter slice) in standalone mode: the embedded database and the in-process cache and queues.
describe.each([
  ['PostgreSQL and Redis', startTestApp, 20],
  ['standalone mode', startStandaloneTestApp, 8],
] as const)('fuzzing the control plane from its OpenAPI document (%s)', (_mode, start, seconds) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await start(buildControlPlane, { TRUST_PROXY: 'loopback' });
  }, 60_000);
  afterAll(() => t.close());

  const { seed, budgetMs, trace } = fuzzSettings(seconds);

  /** A tenant with one of everything the admin API manages, created through the API itself. */
  async function furnish(tenant: SeededTenant, token: string): Promise<void> {
    const as = (method: 'post', path: string, body: object) =>
      t.http()[method](path).set('Authorization', `Bearer ${token}`).send(body);
    const member = await createUser(t.app, tenant.project, `member-${randomUUID()}@example.com`);
    const org = await as('post', '/v1/admin/organizations', {
      project_id: tenant.project.id,
      name: 'Org',
    });
    const made = [
      org,
      await as('post', `/v1/admin/organizations/${org.body.id}/members`, {
        user_id: member.id,
        role: 'admin',
      }),
      await as('post', `/v1/admin/organizations/${org.body.id}/invitations`, {
        email: 'invitee@example.com',
        role: 'member',
      }),
      await as('post', `/v1/admin/organizations/${org.body.id}/sso-connections`, {
        type: 'oidc',
        name: 'IdP',
        oidc: { issuer: 'https://idp.example.com', client_id: 'rp', client_secret: 'secret' },
      }),
      await as('post', '/v1/admin/webhooks', {
        url: 'https://hooks.example.com/in',
        events: ['*'],
      }),
      await as('post', `/v1/admin/projects/${tenant.project.id}/api-keys`, { name: 'backend' }),
      await as('post', `/v1/admin/projects/${tenant.project.id}/oauth-clients`, {
        name: 'rp',
        redirect_uris: ['https://rp.example.com/cb'],
      }),
    ];
    for (const res of made)
      if (res.status !== 201)
        throw new Error(`furnishing failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  it(
    'answers every operation within the contract, changing nothing it refuses and nothing of another tenant (seeded: FUZZ_SEED replays)',
    async () => {
      console.log(
        `fuzz control-plane: seed ${seed} (replay with FUZZ_SEED=${seed}), budget ${budgetMs / 1000} s`,
      );
      await t.reset();
      const tenant = await seedTenant(t.app);
      const other = await seedTenant(t.app, 'Other');
      let token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
      await furnish(tenant, token);
      await furnish(other, (await mintAccessToken(t.app, other.adminUserId)).token);
      // Not an admin: a user of the tenant's application project.
      const plain = await createUser(t.app, tenant.project, 'plain@example.com');
      const plainToken = (await mintAccessToken(t.app, plain.id)).token;
      // An admin token whose session is over (revoked as the services do: the row and the cache's mark).
      const ended = await mintAccessToken(t.app, tenant.adminUserId);
      await t.dataSource
        .getRepository(Session)
        .update({ id: ended.sessionId }, { revokedAt: new Date(), revokeReason: 'sign_out' });
      await t.app.get(AccessTokensService).markRevoked([ended.sessionId]);

      const modes: FuzzMode[] = [
        {
          name: 'admin bearer',
          valid: true,
          credentials: () => ({ headers: { Authorization: `Bearer ${token}` }, query: {} }),
        },
        {
          name: 'admin session cookie',
          valid: true,
          credentials: () => ({ headers: { Cookie: `service_session=${token}` }, query: {} }),
        },
        { name: 'nothing', valid: false, credentials: () => ({ headers: {}, query: {} }) },
        {
          name: 'non-admin bearer',
          valid: false,
          credentials: () => ({ headers: { Authorization: `Bearer ${plainToken}` }, query: {} }),
        },
        {
          name: 'ended admin session',
          valid: false,
          credentials: () => ({ headers: { Authorization: `Bearer ${ended.token}` }, query: {} }),
        },
        {
          name: 'forged bearer',
          valid: false,
          credentials: () => ({
            headers: { Authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJhZG0iOnRydWV9.' },
            query: {},
          }),
        },
      ];
      const report = await fuzzApi({
        t,
        name: 'control-plane',
        redisUrl: TEST_REDIS_URL,
        modes,
        renew: async () => {
          token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
        },
        ownership: { table: 'tenants', column: 'tenant_id', value: () => tenant.tenantId },
        redirectHosts: [],
        origins: ['https://console.example.com'],
        seed,
        budgetMs,
        trace,
      });
      console.log(
        `fuzz control-plane: seed ${seed}: ${report.cases} requests in ${report.rounds} rounds, ${report.stateChecks} state checks, ${(report.ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(report.statuses)}`,
      );
      expect(report.covered).toEqual(
        report.operations.flatMap((op) => [`${op} invalid`, `${op} valid`]).sort(),
      );
    },
    budgetMs + 120_000,
  );
});
