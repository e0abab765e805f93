import { randomBytes } from 'node:crypto';
import { randomToken, sha256Hex } from '@gatehouse/crypto';
import { ApiKey } from '@gatehouse/entities';
import {
  APP_ORIGIN,
  fuzzApi,
  fuzzSettings,
  mintAccessToken,
  seedTenant,
  signUpUser,
  startStandaloneTestApp,
  startTestApp,
  TEST_REDIS_URL,
  type FuzzMode,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/**
 * Schema-driven fuzzing of the auth runtime: every operation of its OpenAPI document, with the
 * fuzzer's own user's credentials and without, hostile values everywhere (libs/testing/src/fuzz).
 * `npm test` runs a bounded slice; `npm run fuzz -- --seconds 600 --seed N` a longer one.
 */
// Once on PostgreSQL and Redis, once more (a shorter slice) in standalone mode: the embedded database and the in-process cache and queues.
describe.each([
  ['PostgreSQL and Redis', startTestApp, 20],
  ['standalone mode', startStandaloneTestApp, 8],
] as const)('fuzzing the auth runtime from its OpenAPI document (%s)', (_mode, start, seconds) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await start(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  }, 60_000);
  afterAll(() => t.close());

  const { seed, budgetMs, trace } = fuzzSettings(seconds);

  it(
    'answers every operation within the contract, changing nothing it refuses (seeded: FUZZ_SEED replays)',
    async () => {
      console.log(
        `fuzz auth-runtime: seed ${seed} (replay with FUZZ_SEED=${seed}), budget ${budgetMs / 1000} s`,
      );
      await t.reset();
      const tenant = await seedTenant(t.app);
      const other = await seedTenant(t.app, 'Other');
      const user = await signUpUser(t, tenant.projectKey, 'fuzz@example.com');
      // Rows that are not the fuzzer's: a neighbour in the same project, a stranger in another tenant.
      await signUpUser(t, tenant.projectKey, 'neighbour@example.com');
      await signUpUser(t, other.projectKey, 'stranger@example.com');
      const revoked = randomToken(32, 'sk_');
      await t.dataSource.getRepository(ApiKey).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        name: 'revoked',
        keyPrefix: revoked.slice(0, 11),
        secretHash: sha256Hex(revoked),
        revokedAt: new Date(),
      });
      let token = user.accessToken;
      const key = tenant.projectKey;
      const unknownKey = `pk_${randomBytes(24).toString('base64url')}`;
      const modes: FuzzMode[] = [
        {
          name: 'project key + bearer',
          valid: true,
          credentials: () => ({
            headers: { 'X-Service-Project-Key': key, Authorization: `Bearer ${token}` },
            query: { project_key: key },
          }),
        },
        {
          name: 'project key + session cookie',
          valid: true,
          credentials: () => ({
            headers: { 'X-Service-Project-Key': key, Cookie: `service_session=${token}` },
            query: { project_key: key },
          }),
        },
        { name: 'nothing', valid: false, credentials: () => ({ headers: {}, query: {} }) },
        {
          name: 'unknown key + bearer',
          valid: false,
          credentials: () => ({
            headers: { 'X-Service-Project-Key': unknownKey, Authorization: `Bearer ${token}` },
            query: { project_key: unknownKey },
          }),
        },
        {
          name: 'revoked API key + bearer',
          valid: false,
          credentials: () => ({
            headers: { 'X-Service-Project-Key': revoked, Authorization: `Bearer ${token}` },
            query: { project_key: revoked },
          }),
        },
        {
          name: 'malformed key + forged bearer',
          valid: false,
          credentials: () => ({
            headers: {
              'X-Service-Project-Key': `${key} `.repeat(3),
              Authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.',
            },
            query: { project_key: 'pk_' },
          }),
        },
      ];
      const report = await fuzzApi({
        t,
        name: 'auth-runtime',
        redisUrl: TEST_REDIS_URL,
        modes,
        renew: async () => {
          token = (await mintAccessToken(t.app, user.id)).token;
        },
        ownership: { table: 'users', column: 'user_id', value: () => user.id },
        redirectHosts: ['app.example.com', 'auth.test'],
        origins: [APP_ORIGIN],
        seed,
        budgetMs,
        trace,
      });
      console.log(
        `fuzz auth-runtime: seed ${seed}: ${report.cases} requests in ${report.rounds} rounds, ${report.stateChecks} state checks, ${(report.ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(report.statuses)}`,
      );
      expect(report.covered).toEqual(
        report.operations.flatMap((op) => [`${op} invalid`, `${op} valid`]).sort(),
      );
    },
    budgetMs + 120_000,
  );
});
