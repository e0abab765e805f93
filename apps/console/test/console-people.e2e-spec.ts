import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL } from '@gatehouse/testing';
import { ConsoleBrowser, signInThroughPage } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

interface Signed {
  session: { id: string; access_token: string };
  user: { id: string; email: string };
}
interface Problem {
  detail: string;
  errors?: Record<string, string[]>;
}

/**
 * The console's people screens (issue 22): users (search, filter, sessions, status, metadata,
 * delete) and organizations (create, edit, members and the last-admin rule, invitations, delete),
 * driven in Chromium on the stack `npm start` runs, every change checked through the API, each
 * screen scanned with axe-core in both themes. One stack and one browser; the tests build on each
 * other in order.
 */
describe('admin console: users and organizations (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  let projectId = '';
  let projectKey = '';
  let alice: Signed;
  let aliceAgain: Signed;
  let bob: Signed;
  let carol: Signed;

  const me = async (accessToken: string) =>
    stack.authApi<{ user: { id: string } | null }>(projectKey, '/v1/auth/me', {
      method: 'GET',
      token: accessToken,
    });
  const dialog = () => page.getByRole('dialog');
  const confirm = async (name: string) => {
    await dialog().getByRole('button', { name, exact: true }).click();
    await dialog().waitFor({ state: 'detached' });
  };
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const textOf = async (locator: Locator) =>
    ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  beforeAll(async () => {
    await stack.start();
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
    ]);
    page = browser.page;
    page.setDefaultTimeout(10_000);
    token = await stack.adminToken();
    const project = await stack.adminApi<{ id: string; publishable_key: string }>(
      token,
      '/v1/admin/projects',
      {
        method: 'POST',
        body: { name: 'People app', redirect_urls: ['http://localhost:5999/invitation'] },
      },
    );
    expect(project.status).toBe(201);
    projectId = project.body.id;
    projectKey = project.body.publishable_key;
    const signUp = async (email: string, username: string) => {
      const res = await stack.authApi<Signed>(projectKey, '/v1/auth/sign-up', {
        body: { email, username, password: 'correct horse battery staple 42' },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    alice = await signUp('alice@people.test', 'alice');
    bob = await signUp('bob@people.test', 'bobby');
    carol = await signUp('carol@people.test', 'carol');
    const again = await stack.authApi<Signed>(projectKey, '/v1/auth/sign-in', {
      body: { identifier: 'alice@people.test', password: 'correct horse battery staple 42' },
    });
    expect(again.status).toBe(200);
    aliceAgain = again.body;
    await signInThroughPage(page, stack.consoleUrl, stack.admin.email, stack.admin.password);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  afterEach(() => {
    // No screen may break the page's CSP, throw, or fetch anything from the network.
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  });

  test('users list: search (debounced, in the URL), project filter, and a row opens the detail', async () => {
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('link', { name: 'carol@people.test' }).waitFor();
    // The admin of the console project is a user of the tenant too.
    await table.getByRole('link', { name: stack.admin.email }).waitFor();
    expect(await browser.checkScreen('users')).toEqual([]);

    await page.getByLabel('Search users').fill('ALI');
    await page.waitForURL(/[?&]q=ALI/);
    await until(
      async () => (await table.getByRole('link').count()) === 1,
      'the search to narrow the list',
    );
    expect(await table.getByRole('link').allTextContents()).toEqual(['alice@people.test']);
    await page.getByLabel('Search users').fill('nobody-matches-this');
    await page.getByTestId('empty-state').waitFor();
    expect(await textOf(page.getByTestId('empty-state'))).toBe('No user matches this search.');
    await page.getByLabel('Search users').fill('');
    await until(async () => !/[?&]q=/.test(page.url()), 'the search to clear');

    await page.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'People app' }).click();
    await page.waitForURL(new RegExp(`[?&]project=${projectId}`));
    await until(async () => (await table.getByRole('link').count()) === 3, 'the project filter');
    expect((await table.getByRole('link').allTextContents()).sort()).toEqual([
      'alice@people.test',
      'bob@people.test',
      'carol@people.test',
    ]);
    expect(await textOf(page.getByText(/in all$/))).toBe('3 in all');

    await table.getByRole('link', { name: 'alice@people.test' }).click();
    await page.getByRole('heading', { name: 'alice@people.test', level: 1 }).waitFor();
    expect(page.url()).toContain(`/users/${alice.user.id}`);
    // Back keeps the filter (it lives in the URL).
    await page.goBack();
    await table.getByRole('link', { name: 'bob@people.test' }).waitFor();
    expect(page.url()).toContain(`project=${projectId}`);
    await table.getByRole('link', { name: 'alice@people.test' }).click();
    await page.getByRole('heading', { name: 'alice@people.test', level: 1 }).waitFor();
  }, 120_000);

  test('user detail: profile, revoke one session then all (their tokens are refused), disable, enable, no unlock without a lockout', async () => {
    const profile = page.getByRole('region', { name: 'Profile' });
    expect(await textOf(profile)).toContain('alice');
    expect(await textOf(profile)).toContain('People app');
    expect(await textOf(profile)).toContain(alice.user.id);
    const sessions = page.getByRole('table', { name: 'Active sessions' });
    await sessions.locator(`tr[data-session-id="${alice.session.id}"]`).waitFor();
    expect(await sessions.locator('tbody tr').count()).toBe(2);
    expect(await textOf(page.getByRole('region', { name: 'Organizations' }))).toContain(
      'Not a member of any organization.',
    );
    expect(await browser.checkScreen('user-detail')).toEqual([]);

    expect((await me(alice.session.access_token)).body.user?.id).toBe(alice.user.id);
    const first = sessions.locator(`tr[data-session-id="${alice.session.id}"]`);
    await first.getByRole('button', { name: /^Revoke the session started/ }).click();
    expect(await textOf(dialog())).toContain('ends at once');
    await confirm('Revoke session');
    await first.waitFor({ state: 'detached' });
    expect(await sessions.locator('tbody tr').count()).toBe(1);
    const revoked = await me(alice.session.access_token);
    expect(revoked.status === 401 || revoked.body.user === null).toBe(true);
    // Only that session: the other one still works.
    expect((await me(aliceAgain.session.access_token)).body.user?.id).toBe(alice.user.id);

    await page.getByRole('button', { name: 'Revoke all sessions' }).click();
    await confirm('Revoke all');
    await page
      .getByRole('region', { name: 'Active sessions' })
      .getByText('No active session.')
      .waitFor();
    const all = await me(aliceAgain.session.access_token);
    expect(all.status === 401 || all.body.user === null).toBe(true);
    const afterRevoke = await stack.adminApi<{ status: string; sessions: unknown[] }>(
      token,
      `/v1/admin/users/${alice.user.id}`,
    );
    expect(afterRevoke.body).toMatchObject({ status: 'active', sessions: [] });

    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await confirm('Disable');
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor();
    expect(await textOf(profile)).toContain('disabled');
    expect(
      (await stack.adminApi<{ status: string }>(token, `/v1/admin/users/${alice.user.id}`)).body
        .status,
    ).toBe('disabled');
    const refused = await stack.authApi(projectKey, '/v1/auth/sign-in', {
      body: { identifier: 'alice@people.test', password: 'correct horse battery staple 42' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);

    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The user is enabled' }).waitFor();
    expect(
      (await stack.adminApi<{ status: string }>(token, `/v1/admin/users/${alice.user.id}`)).body
        .status,
    ).toBe('active');
    // Unlock is offered only while a lockout holds (console-users covers it): alice is not locked.
    expect(await page.getByRole('button', { name: 'Unlock', exact: true }).count()).toBe(0);
  }, 120_000);

  test('user detail: metadata is checked as JSON before sending, the server refusal lands on the field, a valid object is saved', async () => {
    const form = page.getByRole('region', { name: 'Metadata' });
    const input = form.getByLabel('Metadata (JSON object)');
    const save = form.getByRole('button', { name: 'Save metadata' });
    await input.fill('{"plan": ');
    await save.click();
    await form.getByText(/^Not valid JSON/).waitFor();
    await input.fill('[1, 2]');
    await save.click();
    await form.getByText('Must be a JSON object, e.g. {"plan": "pro"}').waitFor();
    // Over 8 KiB: only the server knows; its field error is shown on the field.
    await input.fill(JSON.stringify({ blob: 'x'.repeat(9000) }));
    await save.click();
    await form.getByText('must be a JSON object of at most 8 KiB').waitFor();
    expect(
      (await stack.adminApi<{ metadata: object }>(token, `/v1/admin/users/${alice.user.id}`)).body
        .metadata,
    ).toEqual({});

    await input.fill('{"plan": "pro", "seats": 3}');
    await save.click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(
      (await stack.adminApi<{ metadata: object }>(token, `/v1/admin/users/${alice.user.id}`)).body
        .metadata,
    ).toEqual({ plan: 'pro', seats: 3 });
  }, 120_000);

  test('user detail: deleting asks first, then goes back to the list; the admin cannot delete themselves', async () => {
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    expect(await textOf(dialog())).toContain('This cannot be undone');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect((await stack.adminApi(token, `/v1/admin/users/${alice.user.id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm('Delete user');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/users');
    expect((await stack.adminApi(token, `/v1/admin/users/${alice.user.id}`)).status).toBe(404);
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('link', { name: 'bob@people.test' })
      .waitFor();
    expect(await page.getByRole('link', { name: 'alice@people.test' }).count()).toBe(0);

    // The server's refusal is shown in the dialog, which stays open.
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('link', { name: stack.admin.email })
      .click();
    await page.getByRole('heading', { name: stack.admin.email, level: 1 }).waitFor();
    const expected = await stack.adminApi<Problem>(token, `/v1/admin/users/${await adminId()}`, {
      method: 'DELETE',
    });
    expect(expected.status).toBe(409);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog().getByRole('button', { name: 'Delete user' }).click();
    await dialog().getByRole('alert').filter({ hasText: expected.body.detail }).waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  }, 120_000);

  const adminId = async () => {
    const list = await stack.adminApi<{ users: { id: string; email: string }[] }>(
      token,
      `/v1/admin/users?q=${encodeURIComponent(stack.admin.email)}`,
    );
    return list.body.users.find((u) => u.email === stack.admin.email)!.id;
  };

  test('users list at 390 px: the burger opens the navigation drawer and a user row is reachable', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${stack.consoleUrl}/`);
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      const burger = page.getByRole('button', { name: 'Open navigation' });
      await burger.click();
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await nav.getByRole('link', { name: 'Users' }).click();
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      const row = page
        .getByRole('table', { name: 'Users' })
        .getByRole('link', { name: 'bob@people.test' });
      await row.scrollIntoViewIfNeeded();
      expect(await row.isVisible()).toBe(true);
      const box = await row.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      // Nothing but the table scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      await row.click();
      await page.getByRole('heading', { name: 'bob@people.test', level: 1 }).waitFor();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 120_000);

  let orgId = '';

  test('organizations: the list and the create form (fields checked, the server errors mapped onto them)', async () => {
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Organizations' })
      .click();
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.getByTestId('empty-state').waitFor();

    await page.getByRole('button', { name: 'New organization' }).click();
    const form = dialog();
    await form.getByRole('button', { name: 'Create organization' }).click();
    await form.getByText('Choose a project').waitFor();
    await form.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'People app' }).click();
    await form.getByRole('textbox', { name: 'Name' }).fill('Acme Robotics');
    await form.getByRole('textbox', { name: 'Slug' }).fill('Not A Slug!');
    await form.getByRole('button', { name: 'Create organization' }).click();
    const refusal = await stack.adminApi<Problem>(token, '/v1/admin/organizations', {
      method: 'POST',
      body: { project_id: projectId, name: 'Acme Robotics', slug: 'Not A Slug!' },
    });
    expect(refusal.status).toBe(400);
    await form.getByText(refusal.body.errors!.slug.join('; ')).waitFor();
    await form.getByRole('textbox', { name: 'Slug' }).fill('acme-robotics');
    await form.getByLabel('Metadata (JSON object)').fill('{"tier": "gold"}');
    await form.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Acme Robotics', level: 1 }).waitFor();
    orgId = /\/organizations\/([^/?]+)/.exec(page.url())![1];
    const created = await stack.adminApi(token, `/v1/admin/organizations/${orgId}`);
    expect(created.body).toMatchObject({
      name: 'Acme Robotics',
      slug: 'acme-robotics',
      project_id: projectId,
      metadata: { tier: 'gold' },
    });

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Organizations' })
      .click();
    const table = page.getByRole('table', { name: 'Organizations' });
    await table.getByRole('link', { name: 'Acme Robotics' }).waitFor();
    expect(await textOf(table)).toContain('People app');
    expect(await browser.checkScreen('organizations')).toEqual([]);
    await page.getByLabel('Search organizations').fill('robot');
    await page.waitForURL(/[?&]q=robot/);
    await table.getByRole('link', { name: 'Acme Robotics' }).waitFor();
    await page.getByLabel('Search organizations').fill('zzz');
    await page.getByText('No organization matches this search.').waitFor();
    await page.getByLabel('Search organizations').fill('acme-rob');
    await table.getByRole('link', { name: 'Acme Robotics' }).click();
    await page.getByRole('heading', { name: 'Acme Robotics', level: 1 }).waitFor();
  }, 120_000);

  test('organization detail: edit name, slug and metadata', async () => {
    const form = page.getByRole('form', { name: 'Edit organization' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Acme Robotics Ltd');
    await form.getByRole('textbox', { name: 'Slug' }).fill('acme-ltd');
    await form.getByLabel('Metadata (JSON object)').fill('{"tier": "platinum", "region": "eu"}');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('heading', { name: 'Acme Robotics Ltd', level: 1 }).waitFor();
    expect((await stack.adminApi(token, `/v1/admin/organizations/${orgId}`)).body).toMatchObject({
      name: 'Acme Robotics Ltd',
      slug: 'acme-ltd',
      metadata: { tier: 'platinum', region: 'eu' },
    });
  }, 120_000);

  test('members: add through the user search and by id, change roles, and the last-admin rule refused with the server message', async () => {
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByTestId('empty-state').waitFor();
    const add = page.getByRole('form', { name: 'Add a member' });

    await add.getByRole('combobox', { name: 'Find a user of the project' }).fill('car');
    await page.getByRole('option', { name: 'carol@people.test (carol)' }).click();
    expect(await add.getByRole('textbox', { name: 'User ID' }).inputValue()).toBe(carol.user.id);
    await add.getByRole('combobox', { name: 'Role' }).selectOption('admin');
    await add.getByRole('button', { name: 'Add member' }).click();
    const table = members.getByRole('table', { name: 'Members' });
    await table.getByRole('link', { name: 'carol@people.test' }).waitFor();

    // A user of another project (the console's admin) is not found in this one: the server's words.
    const outsider = await stack.adminApi<Problem>(
      token,
      `/v1/admin/organizations/${orgId}/members`,
      { method: 'POST', body: { user_id: await adminId() } },
    );
    expect(outsider.status).toBe(404);
    await add.getByRole('textbox', { name: 'User ID' }).fill(await adminId());
    await add.getByRole('button', { name: 'Add member' }).click();
    await add.getByRole('alert').filter({ hasText: outsider.body.detail }).waitFor();

    await add.getByRole('textbox', { name: 'User ID' }).fill(bob.user.id);
    await add.getByRole('button', { name: 'Add member' }).click();
    await table.getByRole('link', { name: 'bob@people.test' }).waitFor();
    expect(await add.getByRole('textbox', { name: 'User ID' }).inputValue()).toBe('');
    expect(
      await add.getByRole('combobox', { name: 'Find a user of the project' }).inputValue(),
    ).toBe('');
    expect(await add.getByRole('alert').count()).toBe(0);
    expect(await browser.checkScreen('organization-detail')).toEqual([]);
    const roles = async () =>
      Object.fromEntries(
        (
          await stack.adminApi<{ members: { email: string; role: string }[] }>(
            token,
            `/v1/admin/organizations/${orgId}/members`,
          )
        ).body.members.map((m) => [m.email, m.role]),
      );
    expect(await roles()).toEqual({ 'carol@people.test': 'admin', 'bob@people.test': 'member' });

    await table.getByRole('combobox', { name: 'Role of bob@people.test' }).selectOption('admin');
    await until(async () => (await roles())['bob@people.test'] === 'admin', 'bob to become admin');
    await until(
      async () =>
        !(await table.getByRole('combobox', { name: 'Role of bob@people.test' }).isDisabled()),
      'the role change to settle',
    );
    await table.getByRole('combobox', { name: 'Role of bob@people.test' }).selectOption('member');
    await until(
      async () => (await roles())['bob@people.test'] === 'member',
      'bob to become member again',
    );
    await until(
      async () =>
        !(await table.getByRole('combobox', { name: 'Role of carol@people.test' }).isDisabled()),
      'the role change to settle',
    );

    // Demoting the only admin: refused, the server's own words shown, the role unchanged.
    const demote = await stack.adminApi<Problem>(
      token,
      `/v1/admin/organizations/${orgId}/members/${carol.user.id}`,
      { method: 'PATCH', body: { role: 'member' } },
    );
    expect(demote.status).toBe(409);
    await table.getByRole('combobox', { name: 'Role of carol@people.test' }).selectOption('member');
    const alert = members.getByRole('alert').filter({ hasText: 'Could not change the role' });
    await alert.waitFor();
    expect(await textOf(alert)).toContain(demote.body.detail);
    await until(
      async () =>
        (await table.getByRole('combobox', { name: 'Role of carol@people.test' }).inputValue()) ===
        'admin',
      'the select to show the role kept',
    );
    expect((await roles())['carol@people.test']).toBe('admin');

    // Removing the only admin: the confirmation dialog shows the refusal and stays open.
    const removal = await stack.adminApi<Problem>(
      token,
      `/v1/admin/organizations/${orgId}/members/${carol.user.id}`,
      { method: 'DELETE' },
    );
    expect(removal.status).toBe(409);
    await table.getByRole('button', { name: 'Remove carol@people.test' }).click();
    await dialog().getByRole('button', { name: 'Remove member' }).click();
    await dialog().getByRole('alert').filter({ hasText: removal.body.detail }).waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });

    await table.getByRole('button', { name: 'Remove bob@people.test' }).click();
    await confirm('Remove member');
    await table.getByRole('link', { name: 'bob@people.test' }).waitFor({ state: 'detached' });
    expect(await roles()).toEqual({ 'carol@people.test': 'admin' });

    // The user's page lists the membership.
    await table.getByRole('link', { name: 'carol@people.test' }).click();
    await page.getByRole('heading', { name: 'carol@people.test', level: 1 }).waitFor();
    const orgs = page.getByRole('table', { name: 'Organizations of the user' });
    await orgs.getByRole('link', { name: 'Acme Robotics Ltd' }).waitFor();
    // Roles read the same in the user's organizations, the members' pickers and the invitations.
    expect(await textOf(orgs)).toContain('Admin');
    expect(await textOf(orgs)).not.toContain('admin');
    await orgs.getByRole('link', { name: 'Acme Robotics Ltd' }).click();
    await page.getByRole('heading', { name: 'Acme Robotics Ltd', level: 1 }).waitFor();
  }, 120_000);

  test('invitations: invite, a duplicate refused, revoke; then the organization is deleted', async () => {
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByTestId('empty-state').waitFor();
    const form = page.getByRole('form', { name: 'Invite by email' });
    await form.getByRole('textbox', { name: 'Email' }).fill('dana@people.test');
    await form.getByRole('combobox', { name: 'Role' }).selectOption('admin');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const table = invitations.getByRole('table', { name: 'Invitations' });
    await table.getByRole('cell', { name: 'dana@people.test', exact: true }).waitFor();
    expect(await textOf(table)).toContain('pending');
    expect(await table.getByRole('cell', { name: 'Admin', exact: true }).count()).toBe(1);
    const listed = await stack.adminApi<{
      invitations: { id: string; email: string; role: string; status: string }[];
    }>(token, `/v1/admin/organizations/${orgId}/invitations`);
    expect(listed.body.invitations).toMatchObject([
      { email: 'dana@people.test', role: 'admin', status: 'pending' },
    ]);

    await form.getByRole('textbox', { name: 'Email' }).fill('dana@people.test');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const duplicate = await stack.adminApi<Problem>(
      token,
      `/v1/admin/organizations/${orgId}/invitations`,
      { method: 'POST', body: { email: 'dana@people.test' } },
    );
    expect(duplicate.status).toBe(409);
    // A conflict naming a field: its message on the field, the server's detail above the button.
    await form.getByRole('alert').filter({ hasText: duplicate.body.detail }).waitFor();
    await form.getByText(duplicate.body.errors!.email.join('; ')).waitFor();

    await table.getByRole('button', { name: 'Revoke the invitation of dana@people.test' }).click();
    await confirm('Revoke invitation');
    await table.getByText('revoked').waitFor();
    expect(await table.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    expect(
      (
        await stack.adminApi<{ invitations: { status: string }[] }>(
          token,
          `/v1/admin/organizations/${orgId}/invitations`,
        )
      ).body.invitations.map((i) => i.status),
    ).toEqual(['revoked']);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm('Delete organization');
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    expect((await stack.adminApi(token, `/v1/admin/organizations/${orgId}`)).status).toBe(404);
    await page.getByTestId('empty-state').waitFor();
  }, 120_000);

  test('export users with password hashes from an aged session: the console asks for the password in place, then the file holds the hashes', async () => {
    // The admin's proof is 11 minutes old (the console project's reauthentication_max_age_seconds is 600):
    // as if that time had passed, the sessions' auth_time moves back, and a reload renews the page's
    // token from the refresh cookie, which carries the session's auth_time.
    const db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL }).initialize();
    try {
      await db.query(
        `UPDATE sessions SET auth_time = now() - interval '11 minutes' WHERE user_id = $1`,
        [await adminId()],
      );
    } finally {
      await db.destroy();
    }
    await page.goto(`${stack.consoleUrl}/users?project=${projectId}`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('link', { name: 'bob@people.test' })
      .waitFor();

    await page.getByRole('button', { name: 'Export users' }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export users' });
    await exportDialog
      .getByRole('checkbox', { name: 'Include password hashes and TOTP secrets' })
      .check();
    await exportDialog.getByText('It is recorded in the audit log as a security event').waitFor();
    expect(await exportDialog.getByRole('combobox', { name: 'Project' }).inputValue()).toBe(
      'People app',
    );
    expect(await browser.checkScreen('users-export')).toEqual([]);
    await exportDialog.getByRole('button', { name: 'Export', exact: true }).click();

    // 403 reauthentication-required: the proof is asked for in place.
    const proof = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await proof
      .getByText('Exporting password hashes and TOTP secrets needs a recent proof of identity.')
      .waitFor();
    expect(await browser.checkScreen('users-export-reauthenticate')).toEqual([]);
    // A wrong password: the server's refusal in the dialog, which stays open; nothing was exported.
    await proof.getByLabel('Your password').fill('not the password');
    await proof.getByRole('button', { name: 'Confirm' }).click();
    await proof.getByRole('alert').filter({ hasText: 'Invalid Credentials' }).waitFor();
    const audited = async () =>
      (
        await stack.adminApi<{ events: unknown[] }>(
          token,
          '/v1/admin/audit?action=users.exported_with_secrets',
        )
      ).body.events.length;
    expect(await audited()).toBe(0);

    await proof.getByLabel('Your password').fill(stack.admin.password);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      proof.getByRole('button', { name: 'Confirm' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`users-${projectId}.ndjson`);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            email: string;
            status: string;
            password_hash?: { algorithm: string; hash: string };
          },
      );
    expect(lines.map((l) => l.email).sort()).toEqual(['bob@people.test', 'carol@people.test']);
    for (const line of lines)
      expect([line.email, line.status, line.password_hash]).toEqual([
        line.email,
        'active',
        { algorithm: 'bcrypt_sha256', hash: expect.stringMatching(/^\$2b\$/) },
      ]);
    await proof.waitFor({ state: 'detached' });
    await exportDialog.waitFor({ state: 'detached' });
    expect(await audited()).toBe(1);

    // The renewed proof is recent now: a second export with hashes goes through without asking.
    await page.getByRole('button', { name: 'Export users' }).click();
    await exportDialog
      .getByRole('checkbox', { name: 'Include password hashes and TOTP secrets' })
      .check();
    const [again] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(readFileSync(await again.path(), 'utf8')).toContain('password_hash');
    expect(await proof.count()).toBe(0);
    expect(await audited()).toBe(2);
  }, 120_000);
  test('roles and permissions: a permission and a role made on the project page, the 409s explained, the role given through the pickers and named on every screen; the organization requires MFA', async () => {
    await page.goto(`${stack.consoleUrl}/projects/${projectId}?tab=roles`);
    await page.getByRole('heading', { name: 'People app', level: 1 }).waitFor();
    const rolesTable = page.getByRole('table', { name: 'Roles' });
    const catalog = page.getByRole('table', { name: 'Permissions' });
    // The built-in roles are listed and cannot be deleted; the system permissions neither.
    await rolesTable.locator('tr[data-role-key="member"]').waitFor();
    expect(await textOf(rolesTable.locator('tr[data-role-key="admin"]'))).toContain(
      'Every permission, new ones included',
    );
    expect(await rolesTable.getByRole('button', { name: /^Delete role/ }).count()).toBe(0);
    await catalog.getByText('org:members:manage', { exact: true }).waitFor();
    expect(await catalog.getByRole('button', { name: /^Delete permission/ }).count()).toBe(0);

    // A permission: the server's field error on the field, then created.
    await page.getByRole('button', { name: 'New permission' }).click();
    const bad = await stack.adminApi<Problem>(
      token,
      `/v1/admin/projects/${projectId}/permissions`,
      {
        method: 'POST',
        body: { key: 'Invoices' },
      },
    );
    expect(bad.status).toBe(400);
    await dialog().getByRole('textbox', { name: 'Key' }).fill('Invoices');
    await dialog().getByRole('button', { name: 'Create permission' }).click();
    await dialog().getByText(bad.body.errors!.key.join('; ')).waitFor();
    await dialog().getByRole('textbox', { name: 'Key' }).fill('invoices:read');
    await dialog().getByRole('textbox', { name: 'Description' }).fill('Read invoices');
    await dialog().getByRole('button', { name: 'Create permission' }).click();
    await dialog().waitFor({ state: 'detached' });
    await catalog.getByText('invoices:read', { exact: true }).waitFor();
    const permissions = await stack.adminApi<{ permissions: { key: string; system: boolean }[] }>(
      token,
      `/v1/admin/projects/${projectId}/permissions`,
    );
    expect(permissions.body.permissions.filter((p) => !p.system)).toMatchObject([
      { key: 'invoices:read', description: 'Read invoices' },
    ]);

    // A role granting it and a system permission, both picked from the catalog.
    await page.getByRole('button', { name: 'New role' }).click();
    await dialog().getByRole('textbox', { name: 'Key' }).fill('billing');
    await dialog().getByRole('textbox', { name: 'Name' }).fill('Billing');
    await dialog().getByRole('combobox', { name: 'Permissions' }).click();
    await page.getByRole('option', { name: 'invoices:read' }).click();
    await page.getByRole('option', { name: 'org:members:read' }).click();
    await dialog().getByRole('textbox', { name: 'Description' }).click();
    expect(await browser.checkScreen('project-role-form')).toEqual([]);
    await dialog().getByRole('button', { name: 'Create role' }).click();
    await dialog().waitFor({ state: 'detached' });
    const billingRow = rolesTable.locator('tr[data-role-key="billing"]');
    await billingRow.waitFor();
    expect(await textOf(billingRow)).toContain('org:members:read, invoices:read');
    expect(
      (await stack.adminApi(token, `/v1/admin/projects/${projectId}/roles/billing`)).body,
    ).toMatchObject({
      key: 'billing',
      name: 'Billing',
      permissions: ['org:members:read', 'invoices:read'],
      built_in: false,
    });
    expect(await browser.checkScreen('project-roles')).toEqual([]);

    // admin's permissions are shown as every one, with no picker to narrow them.
    await rolesTable.getByRole('button', { name: 'Edit role Admin' }).click();
    await dialog()
      .getByText(/they cannot be narrowed/)
      .waitFor();
    expect(await dialog().getByRole('combobox', { name: 'Permissions' }).count()).toBe(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });

    // The permission a role grants cannot be deleted: the dialog says why and what to do.
    const granted = await stack.adminApi<Problem>(
      token,
      `/v1/admin/projects/${projectId}/permissions/invoices:read`,
      { method: 'DELETE' },
    );
    expect(granted.status).toBe(409);
    await catalog.getByRole('button', { name: 'Delete permission invoices:read' }).click();
    await dialog().getByRole('button', { name: 'Delete permission' }).click();
    const stillGranted = dialog()
      .getByRole('alert')
      .filter({ hasText: 'The permission is still granted' });
    await stillGranted.waitFor();
    expect(await textOf(stillGranted)).toContain(granted.body.detail);
    expect(granted.body.detail).toContain('billing');
    expect(granted.body.detail).toContain('take it out of them first');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });

    // An organization of the project, bob a member: the pickers list the project's roles by name.
    const org = await stack.adminApi<{ id: string }>(token, '/v1/admin/organizations', {
      method: 'POST',
      body: { project_id: projectId, name: 'Ledger Co' },
    });
    expect(org.status).toBe(201);
    const ledger = org.body.id;
    expect(
      (
        await stack.adminApi(token, `/v1/admin/organizations/${ledger}/members`, {
          method: 'POST',
          body: { user_id: bob.user.id, role: 'member' },
        })
      ).status,
    ).toBe(201);
    await page.goto(`${stack.consoleUrl}/organizations/${ledger}`);
    await page.getByRole('heading', { name: 'Ledger Co', level: 1 }).waitFor();
    const members = page.getByRole('table', { name: 'Members' });
    const bobRole = members.getByRole('combobox', { name: 'Role of bob@people.test' });
    await bobRole.locator('option', { hasText: 'Billing' }).waitFor({ state: 'attached' });
    expect(await bobRole.locator('option').allTextContents()).toEqual([
      'Admin',
      'Member',
      'Billing',
    ]);
    await bobRole.selectOption({ label: 'Billing' });
    const bobMembership = async () =>
      (
        await stack.adminApi<{ members: { email: string; role: string }[] }>(
          token,
          `/v1/admin/organizations/${ledger}/members`,
        )
      ).body.members.find((m) => m.email === 'bob@people.test')?.role;
    await until(async () => (await bobMembership()) === 'billing', 'bob to hold billing');

    const invite = page.getByRole('form', { name: 'Invite by email' });
    await invite.getByRole('textbox', { name: 'Email' }).fill('erin@people.test');
    await invite.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Billing' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const invitations = page.getByRole('table', { name: 'Invitations' });
    await invitations.getByRole('cell', { name: 'erin@people.test', exact: true }).waitFor();
    expect(await invitations.getByRole('cell', { name: 'Billing', exact: true }).count()).toBe(1);
    expect(await textOf(invitations)).not.toContain('billing');
    expect(
      (
        await stack.adminApi<{ invitations: { email: string; role: string }[] }>(
          token,
          `/v1/admin/organizations/${ledger}/invitations`,
        )
      ).body.invitations,
    ).toMatchObject([{ email: 'erin@people.test', role: 'billing' }]);

    // The organization's policy: require MFA, saved when switched.
    const policies = page.getByRole('region', { name: 'Policies' });
    const requireMfa = policies.getByRole('switch', { name: 'Require MFA' });
    expect(await requireMfa.isChecked()).toBe(false);
    await requireMfa.click();
    await policies.getByRole('status').filter({ hasText: 'MFA is required' }).waitFor();
    expect(await requireMfa.isChecked()).toBe(true);
    expect(
      (
        await stack.adminApi<{ settings: { require_mfa: boolean } }>(
          token,
          `/v1/admin/organizations/${ledger}`,
        )
      ).body.settings,
    ).toEqual({ require_mfa: true });
    expect(await browser.checkScreen('organization-roles')).toEqual([]);

    // The user's organizations name the role too.
    await members.getByRole('link', { name: 'bob@people.test' }).click();
    await page.getByRole('heading', { name: 'bob@people.test', level: 1 }).waitFor();
    const orgs = page.getByRole('table', { name: 'Organizations of the user' });
    await orgs.getByRole('link', { name: 'Ledger Co' }).waitFor();
    expect(await orgs.getByRole('cell', { name: 'Billing', exact: true }).count()).toBe(1);

    // A role a member holds cannot be deleted: the dialog says why and what to do.
    const held = await stack.adminApi<Problem>(
      token,
      `/v1/admin/projects/${projectId}/roles/billing`,
      { method: 'DELETE' },
    );
    expect(held.status).toBe(409);
    expect(held.body.detail).toContain('give them another role first');
    await page.goto(`${stack.consoleUrl}/projects/${projectId}?tab=roles`);
    await rolesTable.getByRole('button', { name: 'Delete role Billing' }).click();
    await dialog().getByRole('button', { name: 'Delete role' }).click();
    const stillHeld = dialog().getByRole('alert').filter({ hasText: 'The role is still held' });
    await stillHeld.waitFor();
    expect(await textOf(stillHeld)).toContain(held.body.detail);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(
      (await stack.adminApi(token, `/v1/admin/projects/${projectId}/roles/billing`)).status,
    ).toBe(200);

    // Edited: a permission taken out (the form sends the whole list).
    await rolesTable.getByRole('button', { name: 'Edit role Billing' }).click();
    const pill = dialog().locator('.mantine-Pill-root', { hasText: 'org:members:read' });
    await pill.locator('.mantine-Pill-remove').click();
    await pill.waitFor({ state: 'detached' });
    await dialog().getByRole('textbox', { name: 'Description' }).fill('Reads the invoices');
    await dialog().getByRole('button', { name: 'Save role' }).click();
    await dialog().waitFor({ state: 'detached' });
    await until(
      async () => (await textOf(billingRow)).includes('Reads the invoices'),
      'the edited role to show',
    );
    expect(
      (await stack.adminApi(token, `/v1/admin/projects/${projectId}/roles/billing`)).body,
    ).toMatchObject({ permissions: ['invoices:read'], description: 'Reads the invoices' });

    // Once nobody holds it, the role goes; then no role grants the permission, which goes too.
    const erin = (
      await stack.adminApi<{ invitations: { id: string }[] }>(
        token,
        `/v1/admin/organizations/${ledger}/invitations`,
      )
    ).body.invitations[0];
    const released = [
      await stack.adminApi(token, `/v1/admin/organizations/${ledger}/members/${bob.user.id}`, {
        method: 'PATCH',
        body: { role: 'member' },
      }),
      await stack.adminApi(token, `/v1/admin/organizations/${ledger}/invitations/${erin.id}`, {
        method: 'DELETE',
      }),
    ];
    expect(released.map((r) => r.status)).toEqual([200, 204]);
    await rolesTable.getByRole('button', { name: 'Delete role Billing' }).click();
    await confirm('Delete role');
    await billingRow.waitFor({ state: 'detached' });
    await catalog.getByRole('button', { name: 'Delete permission invoices:read' }).click();
    await confirm('Delete permission');
    await catalog.getByText('invoices:read', { exact: true }).waitFor({ state: 'detached' });
    expect(
      (await stack.adminApi(token, `/v1/admin/projects/${projectId}/roles/billing`)).status,
    ).toBe(404);
  }, 120_000);

  test('verified domains: added, its TXT record shown, refused then verified by a real DNS server, enrollment and role chosen, another vouched for with a reason and removed; users may create organizations', async () => {
    type Domain = {
      id: string;
      domain: string;
      status: string;
      enrollment: string;
      default_role: string;
      verification: { name: string; value: string };
    };
    const org = await stack.adminApi<{ id: string }>(token, '/v1/admin/organizations', {
      method: 'POST',
      body: { project_id: projectId, name: 'Globex' },
    });
    expect(org.status).toBe(201);
    const domains = async () =>
      (
        await stack.adminApi<{ domains: Domain[] }>(
          token,
          `/v1/admin/organizations/${org.body.id}/domains`,
        )
      ).body.domains;
    const domain = async (name: string) => (await domains()).find((d) => d.domain === name);
    await page.goto(`${stack.consoleUrl}/organizations/${org.body.id}`);
    await page.getByRole('heading', { name: 'Globex', level: 1 }).waitFor();
    const section = page.getByRole('region', { name: 'Domains' });
    await section.getByText('No domains yet.').waitFor();

    const add = async (name: string) => {
      await section.getByRole('textbox', { name: 'Domain' }).fill(name);
      await section.getByRole('button', { name: 'Add domain' }).click();
      await section.getByText(name.toLowerCase(), { exact: true }).waitFor();
    };
    await add('Globex.test');
    const globex = (await domain('globex.test'))!;
    expect(globex).toMatchObject({ status: 'pending', enrollment: 'none', default_role: 'member' });
    // The record to add, each part with its copy button.
    await section.getByText(globex.verification.name, { exact: true }).waitFor();
    await section.getByText(globex.verification.value, { exact: true }).waitFor();
    await section.getByRole('button', { name: /Copy TXT record value/ }).waitFor();

    // No record yet: refused, in words, and still pending.
    await section.getByRole('button', { name: 'Verify globex.test' }).click();
    await section.getByText('globex.test is not verified yet').waitFor();
    expect((await domain('globex.test'))!.status).toBe('pending');
    // The record published: verified.
    stack.dns.setTxt(globex.verification.name, globex.verification.value);
    await section.getByRole('button', { name: 'Verify globex.test' }).click();
    await section
      .getByRole('button', { name: 'Verify globex.test' })
      .waitFor({ state: 'detached' });
    expect((await domain('globex.test'))!.status).toBe('verified');
    await section.getByText('Verified', { exact: true }).waitFor();

    await section.getByLabel('How users at globex.test join').selectOption('auto_join');
    await until(
      async () => (await domain('globex.test'))!.enrollment === 'auto_join',
      'the enrollment to be saved',
    );
    await section.getByLabel('Role of users who join by globex.test').selectOption('admin');
    await until(
      async () => (await domain('globex.test'))!.default_role === 'admin',
      'the default role to be saved',
    );

    // Vouched for without DNS: a reason is required and audited.
    await add('initech.test');
    await section.getByRole('button', { name: 'Mark initech.test verified without DNS' }).click();
    const form = section.getByRole('form', { name: 'Mark initech.test verified' });
    await form.getByRole('button', { name: 'Mark verified' }).click();
    await form.getByText('Say why (it is kept in the audit log)').waitFor();
    await form.getByRole('textbox', { name: 'Reason' }).fill('Contract signed with Initech');
    await form.getByRole('button', { name: 'Mark verified' }).click();
    await until(
      async () => (await domain('initech.test'))?.status === 'verified',
      'the admin verification',
    );
    expect(await browser.checkScreen('organization-domains')).toEqual([]);
    await section.getByRole('button', { name: 'Remove initech.test' }).click();
    await confirm('Remove domain');
    await until(async () => (await domain('initech.test')) === undefined, 'the removal');
    expect((await domains()).map((d) => d.domain)).toEqual(['globex.test']);

    // The project lets its users create organizations.
    await page.goto(`${stack.consoleUrl}/projects/${projectId}`);
    await page.getByRole('heading', { name: 'People app', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Let users create organizations' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await until(
      async () =>
        (
          await stack.adminApi<{ settings: { organizations?: { allow_user_create?: boolean } } }>(
            token,
            `/v1/admin/projects/${projectId}`,
          )
        ).body.settings.organizations?.allow_user_create === true,
      'allow_user_create to be saved',
    );
  }, 120_000);
});
