import { renderToString } from 'react-dom/server';
import { createGatehouse, type GatehouseClient } from '@gatehouse/js';
import {
  GatehouseProvider,
  OrganizationSwitcher,
  useOrganization,
  useOrganizationList,
} from './index';
import { organizationListOf } from './organizations';

type Org = { id: string; name: string; slug: string; role: string; permissions: string[] };

/** A fake auth runtime: ada belongs to Acme (member, no permission) and Globex (billing: invoices:read); the session keeps the active one. */
function runtime() {
  const state = {
    orgs: [
      { id: 'org_a', name: 'Acme', slug: 'acme', role: 'member', permissions: [] },
      {
        id: 'org_b',
        name: 'Globex',
        slug: 'globex',
        role: 'billing',
        permissions: ['invoices:read'],
      },
    ] as Org[],
    active: null as string | null,
    lists: 0,
    listStatus: 200,
    allowCreate: true,
  };
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const token = (sub = 'usr_1', sid = 'ses_1') => {
    const now = Math.floor(Date.now() / 1000);
    const m = state.orgs.find((o) => o.id === state.active);
    const org = m && { id: m.id, slug: m.slug, role: m.role, permissions: m.permissions };
    return `${b64({ alg: 'ES256' })}.${b64({ sub, sid, iat: now, exp: now + 900, ...(org ? { org } : {}) })}.sig`;
  };
  const problem = (status: number, slug: string, detail: string) =>
    new Response(
      JSON.stringify({
        type: `https://gatehouse.dev/problems/${slug}`,
        title: slug,
        status,
        detail,
      }),
      { status, headers: { 'content-type': 'application/problem+json' } },
    );
  const fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const path = new URL(String(input)).pathname;
    const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as Record<
      string,
      string | null
    >;
    if (path === '/v1/auth/sign-in') {
      const [sub, sid] = body.identifier === 'grace' ? ['usr_2', 'ses_2'] : ['usr_1', 'ses_1'];
      return Response.json({
        user: { id: sub, email: `${String(body.identifier)}@example.com` },
        session: { id: sid, access_token: token(sub, sid) },
      });
    }
    if (path === '/v1/auth/sign-out') return new Response(null, { status: 204 });
    if (path === '/v1/auth/refresh')
      return Response.json({ access_token: token(), expires_in: 900 });
    if (path === '/v1/auth/organizations' && init.method === 'GET') {
      state.lists += 1;
      if (state.listStatus !== 200)
        return problem(503, 'service-unavailable', 'Try again in a moment.');
      return Response.json({ organizations: state.orgs.map((o) => ({ ...o })) });
    }
    if (path === '/v1/auth/organizations' && init.method === 'POST') {
      if (!state.allowCreate)
        return problem(403, 'forbidden', 'This project does not let users create organizations.');
      const org = {
        id: 'org_c',
        name: String(body.name),
        slug: 'initech',
        role: 'admin',
        permissions: ['org:delete'],
      };
      state.orgs.push(org);
      return Response.json(org, { status: 201 });
    }
    if (path === '/v1/auth/organizations/active') {
      state.active = body.organization_id;
      return Response.json({ access_token: token(), expires_in: 900 });
    }
    return problem(404, 'not-found', 'No such route.');
  }) as unknown as typeof globalThis.fetch;
  const client = createGatehouse({
    authUrl: 'http://auth.test',
    projectKey: 'pk',
    fetch,
    crossTab: false,
  });
  return { state, client };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** Subscribes to the list as a mounted component would, and waits for its first load. */
async function loaded(client: GatehouseClient) {
  const store = organizationListOf(client);
  const unsubscribe = store.subscribe(() => undefined);
  for (let i = 0; i < 20 && store.getSnapshot().loading; i++) await settle();
  return { store, unsubscribe };
}

function Invoices() {
  const { organization, has } = useOrganization();
  const { organizations, loading } = useOrganizationList();
  if (loading) return <p>Loading</p>;
  const name = organizations.find((o) => o.id === organization?.id)?.name;
  return has({ permission: 'invoices:read' }) ? (
    <button type="button">View invoices of {name}</button>
  ) : (
    <p>
      {organization ? `${name} (${organization.role})` : 'No organization'}: {organizations.length}
    </p>
  );
}

const render = (client: GatehouseClient, children: React.ReactNode) =>
  renderToString(
    <GatehouseProvider client={client} restore={false}>
      {children}
    </GatehouseProvider>,
  );

describe('@gatehouse/react organizations', () => {
  it('useOrganization follows the token claim after setActive; has() answers from its permissions', async () => {
    const { client } = runtime();
    await client.signIn({ identifier: 'ada', password: 'pw' });
    const { unsubscribe } = await loaded(client);
    expect(render(client, <Invoices />)).toBe('<p>No organization<!-- -->: <!-- -->2</p>');
    await client.setActiveOrganization('org_a');
    expect(render(client, <Invoices />)).toBe('<p>Acme (member)<!-- -->: <!-- -->2</p>');
    await client.setActiveOrganization('org_b');
    expect(render(client, <Invoices />)).toBe(
      '<button type="button">View invoices of <!-- -->Globex</button>',
    );
    unsubscribe();
    client.dispose();
  });

  it('<OrganizationSwitcher>: a labelled native select, "Personal account" first, the active organization selected, the className on its wrapper; nothing when signed out', async () => {
    const { client } = runtime();
    expect(render(client, <OrganizationSwitcher />)).toBe('');
    await client.signIn({ identifier: 'ada', password: 'pw' });
    const { unsubscribe } = await loaded(client);
    await client.setActiveOrganization('org_b');
    const html = render(client, <OrganizationSwitcher className="switch" id="org" />);
    expect(html).toBe(
      '<div class="switch" data-gatehouse-organization-switcher=""><label for="org">Organization</label>' +
        '<select id="org" aria-busy="false">' +
        '<option value="">Personal account</option>' +
        '<option value="org_a">Acme</option>' +
        '<option value="org_b" selected="">Globex</option></select></div>',
    );
    // With no personal option and none active: a placeholder, selected and disabled.
    await client.setActiveOrganization(null);
    expect(render(client, <OrganizationSwitcher hidePersonal label="Team" id="t" />)).toContain(
      '<label for="t">Team</label><select id="t" aria-busy="false"><option value="" disabled="" selected="">Choose an organization</option><option value="org_a">Acme</option>',
    );
    unsubscribe();
    client.dispose();
  });

  it('the switcher shows the active organization before the list has it, and a list that failed as an alert tied to the select', async () => {
    const { state, client } = runtime();
    state.active = 'org_a';
    state.listStatus = 503;
    await client.signIn({ identifier: 'ada', password: 'pw' });
    const { store, unsubscribe } = await loaded(client);
    expect(store.getSnapshot()).toMatchObject({ organizations: null, loading: false });
    const html = render(client, <OrganizationSwitcher id="o" />);
    expect(html).toContain('aria-describedby="o-error"');
    expect(html).toContain('<option value="org_a" selected="">acme</option>');
    expect(html).toContain('<p id="o-error" role="alert">Try again in a moment.</p>');
    unsubscribe();
    client.dispose();
  });

  it('one list per client: create() adds to it for every reader; another user signing in reloads it; sign-out empties it', async () => {
    const { state, client } = runtime();
    await client.signIn({ identifier: 'ada', password: 'pw' });
    const { store, unsubscribe } = await loaded(client);
    expect(state.lists).toBe(1);
    await expect(store.create({ name: 'Initech' })).resolves.toMatchObject({ id: 'org_c' });
    expect(store.getSnapshot().organizations?.map((o) => o.name)).toEqual([
      'Acme',
      'Globex',
      'Initech',
    ]);
    expect(organizationListOf(client)).toBe(store);
    expect(render(client, <Invoices />)).toBe('<p>No organization<!-- -->: <!-- -->3</p>');

    await client.signOut();
    expect(store.getSnapshot()).toEqual({ organizations: null, loading: false, error: null });
    await client.signIn({ identifier: 'grace', password: 'pw' });
    await settle();
    expect(state.lists).toBe(3);

    state.allowCreate = false;
    const refused = await store.create({ name: 'Umbrella' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ slug: 'forbidden', status: 403 });
    unsubscribe();
    client.dispose();
  });

  it("a role change the token brings (the active organization's claim no longer matches the list) reloads the list", async () => {
    const { state, client } = runtime();
    await client.signIn({ identifier: 'ada', password: 'pw' });
    const { store, unsubscribe } = await loaded(client);
    await client.setActiveOrganization('org_a');
    const before = state.lists;
    state.orgs[0].permissions = ['invoices:read'];
    await client.setActiveOrganization('org_a'); // a switch again (or the next refresh): the new claim
    await settle();
    expect(state.lists).toBe(before + 1);
    expect(store.getSnapshot().organizations?.[0].permissions).toEqual(['invoices:read']);
    unsubscribe();
    client.dispose();
  });
});
