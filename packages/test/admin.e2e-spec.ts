import { createUser, seedTenant } from '@gatehouse/testing';
import {
  adminSession,
  createAdminClient,
  GatehouseError,
  type AdminClient,
} from '@gatehouse/admin';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the stack of the OIDC journeys: the runtime as a real process on a known URL, the control plane in process
import { OidcStack } from '../../apps/auth-runtime/test/support/oidc-stack';

/**
 * @gatehouse/admin against the real control plane (listening on loopback) and auth runtime: an
 * administrator's password session, typed calls, the async iterator over a paginated list, and
 * problems as GatehouseError.
 */
describe('@gatehouse/admin against the real control plane', () => {
  const stack = new OidcStack();
  let controlPlaneUrl: string;
  let admin: AdminClient;
  /** Every URL the client asked for. */
  const requested: string[] = [];

  beforeAll(async () => {
    await stack.start();
    await stack.cp.app.listen(0, '127.0.0.1');
    controlPlaneUrl = (await stack.cp.app.getUrl()).replace('[::1]', '127.0.0.1');
    const session = adminSession({
      authUrl: stack.authUrl,
      projectKey: stack.tenant.consoleKey,
      email: stack.tenant.adminEmail,
      password: stack.tenant.adminPassword,
    });
    admin = createAdminClient({
      baseUrl: controlPlaneUrl,
      token: session.token,
      pageSize: 20,
      fetch: ((request: Request) => (requested.push(request.url), fetch(request))) as typeof fetch,
    });
  });
  afterAll(() => stack.stop());

  it('an administrator signs in with a password and creates a project through typed calls', async () => {
    const { data: project } = await admin.POST('/v1/admin/projects', {
      body: {
        name: 'Billing',
        allowed_origins: ['https://billing.example.com'],
        redirect_urls: ['https://billing.example.com/callback'],
      },
    });
    expect(project).toMatchObject({
      name: 'Billing',
      allowed_origins: ['https://billing.example.com'],
    });
    expect(project.publishable_key).toMatch(/^pk_/);
    const { data: again } = await admin.GET('/v1/admin/projects/{id}', {
      params: { path: { id: project.id } },
    });
    expect(again.id).toBe(project.id);
  });

  it('paginate walks every user of a project, page after page, in the API order and without duplicates', async () => {
    const { data: project } = await admin.POST('/v1/admin/projects', { body: { name: 'Crowd' } });
    const entity = await stack.cp.dataSource
      .getRepository('Project')
      .findOneByOrFail({ id: project.id });
    for (let i = 0; i < 45; i += 1)
      await createUser(
        stack.cp.app,
        entity as never,
        `person${String(i).padStart(2, '0')}@crowd.test`,
      );
    const seen: string[] = [];
    requested.length = 0;
    for await (const user of admin.paginate('/v1/admin/users', {
      query: { project_id: project.id },
    }))
      seen.push(user.email);
    // Pages of 20: 20 + 20 + 5, and no fourth request past the total.
    expect(requested.map((u) => new URL(u).searchParams.toString())).toEqual(
      [1, 2, 3].map((page) => `project_id=${project.id}&page=${page}&limit=20`),
    );
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    const { data: first } = await admin.GET('/v1/admin/users', {
      params: { query: { project_id: project.id, page: 1, limit: 100 } },
    });
    expect(seen).toEqual(first.users.map((u) => u.email));
    // Filters pass through.
    const filtered: string[] = [];
    for await (const user of admin.paginate('/v1/admin/users', {
      query: { project_id: project.id, q: 'person4' },
    }))
      filtered.push(user.email);
    expect(filtered.sort()).toEqual([
      'person40@crowd.test',
      'person41@crowd.test',
      'person42@crowd.test',
      'person43@crowd.test',
      'person44@crowd.test',
    ]);
  });

  it("another tenant's project is a GatehouseError not-found; a refused body carries its field errors", async () => {
    const other = await seedTenant(stack.cp.app, 'Elsewhere');
    const notFound = await admin
      .GET('/v1/admin/projects/{id}', { params: { path: { id: other.project.id } } })
      .catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(GatehouseError);
    expect(notFound).toMatchObject({ slug: 'not-found', status: 404 });
    expect((notFound as GatehouseError).traceId).toMatch(/^[0-9a-f]{32}$/);
    const invalid = await admin
      .POST('/v1/admin/projects', { body: { name: 'Bad', allowed_origins: ['not an origin'] } })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ slug: 'validation-error', status: 400 });
    expect(Object.keys((invalid as GatehouseError).errors ?? {})).toEqual([
      expect.stringMatching(/^allowed_origins/),
    ]);
  });

  it('adminSession renews through the refresh cookie of the real runtime, and its sign-out ends the session', async () => {
    // A renewal margin longer than the token's life: every token() refreshes (as a script running for hours would).
    const session = adminSession({
      authUrl: stack.authUrl,
      projectKey: stack.tenant.consoleKey,
      email: stack.tenant.adminEmail,
      password: stack.tenant.adminPassword,
      renewBeforeSeconds: 100_000,
    });
    const tokens: string[] = [];
    const client = createAdminClient({
      baseUrl: controlPlaneUrl,
      token: async () => tokens[tokens.push(await session.token()) - 1],
    });
    for (let i = 0; i < 3; i += 1)
      expect((await client.GET('/v1/admin/projects')).data.projects.length).toBeGreaterThan(0);
    expect(new Set(tokens).size).toBe(3);
    // Concurrent callers share one refresh: the rotated cookie is never presented twice.
    const together = await Promise.all(Array.from({ length: 5 }, () => session.token()));
    expect(new Set(together).size).toBe(1);
    expect(
      (
        await createAdminClient({ baseUrl: controlPlaneUrl, token: together[0] }).GET(
          '/v1/admin/stats',
        )
      ).response.status,
    ).toBe(200);
    await session.signOut();
    const ended = await createAdminClient({ baseUrl: controlPlaneUrl, token: together[0] })
      .GET('/v1/admin/projects')
      .catch((e: unknown) => e);
    expect(ended).toMatchObject({ slug: 'unauthenticated', status: 401 });
  });

  it('a wrong password surfaces as invalid-credentials', async () => {
    const wrong = createAdminClient({
      baseUrl: controlPlaneUrl,
      token: adminSession({
        authUrl: stack.authUrl,
        projectKey: stack.tenant.consoleKey,
        email: stack.tenant.adminEmail,
        password: 'not the password at all',
      }).token,
    });
    const err = await wrong.GET('/v1/admin/projects').catch((e: unknown) => e);
    expect(err).toMatchObject({ slug: 'invalid-credentials', status: 401 });
  });
});
