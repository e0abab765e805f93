import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { eventually, TEST_DATABASE_URL } from '@gatehouse/testing';
import { ConsoleBrowser, signInThroughPage } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

interface AuditEvent {
  id: string;
  action: string;
  resource_id: string | null;
  data: Record<string, unknown>;
}

const CSV_HEADER =
  'id,created_at,action,actor_type,actor_id,resource_type,resource_id,project_id,ip_address,user_agent,data';

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The support screens of issue 36 as an admin meets them in week one, in Chromium against the
 * stack `npm start` starts: why a webhook delivery failed (the attempt expanded, the error in
 * words), the deliveries filtered, the secret rotated behind a fresh proof; a project's ids copied,
 * a setting changed and found in the audit log as from → to (filtered by prefix, kept in the URL,
 * exported as CSV); the project deleted by typing its name; the overview of a tenant of 400 projects.
 */
describe('admin console: support journeys (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  let adminId = '';

  /** The admin's proof 11 minutes old (the console's reauthentication_max_age_seconds is 600); the reload renews the page's token, which carries it. */
  async function ageProof(reloadAt: string): Promise<void> {
    const db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL }).initialize();
    try {
      await db.query(
        `UPDATE sessions SET auth_time = now() - interval '11 minutes' WHERE user_id = $1`,
        [adminId],
      );
    } finally {
      await db.destroy();
    }
    await page.goto(`${stack.consoleUrl}${reloadAt}`);
  }

  /** The in-place proof: the dialog names the action, takes the admin's password, and closes. */
  async function prove(reason: string): Promise<void> {
    const proof = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await proof.getByText(reason).waitFor();
    await proof.getByLabel('Your password').fill(stack.admin.password);
    await proof.getByRole('button', { name: 'Confirm' }).click();
    await proof.waitFor({ state: 'detached' });
  }

  async function audit(query: string): Promise<AuditEvent[]> {
    return (await stack.adminApi<{ events: AuditEvent[] }>(token, `/v1/admin/audit?${query}`)).body
      .events;
  }

  beforeAll(async () => {
    await stack.start();
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
    ]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(stack.consoleUrl).origin,
    });
    token = await stack.adminToken();
    adminId = (
      JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string }
    ).sub;
    await signInThroughPage(page, stack.consoleUrl, stack.admin.email, stack.admin.password);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  afterEach(() => {
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  });

  test('a webhook to a closed port: the admin reads "connection refused" in the attempt, filters by failed, rotates the secret behind a fresh proof', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    const created = await stack.adminApi<{ id: string }>(token, '/v1/admin/webhooks', {
      method: 'POST',
      body: { url, events: ['webhook.test'] },
    });
    expect(created.status).toBe(201);
    const hookId = created.body.id;

    await page.goto(`${stack.consoleUrl}/webhooks/${hookId}`);
    await page.getByRole('heading', { name: 'Webhook', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    // The first attempt and its two retries (WEBHOOK_RETRY_SCHEDULE 1s,1s), all refused, grouped under the one event.
    await page
      .locator('tr[data-event-type="webhook.test"][data-attempt="3"][data-status="failed"]')
      .waitFor({ timeout: 30_000 });
    const groups = page.locator('tbody[data-event-group]');
    expect(await groups.count()).toBe(1);
    expect(
      await groups
        .locator('tr[data-attempt]')
        .evaluateAll((rows) =>
          rows.map((r) => `${r.getAttribute('data-attempt')} ${r.getAttribute('data-status')}`),
        ),
    ).toEqual(['3 failed', '2 failed', '1 failed']);
    expect(await groups.getByRole('columnheader').first().textContent()).toContain('3 attempts');

    await page.getByRole('button', { name: 'Show attempt 1 of webhook.test' }).click();
    const detail = page.getByTestId('delivery-detail');
    expect(await detail.getByTestId('delivery-error').textContent()).toMatch(
      /^Failed: connection refused/,
    );
    const sentHeaders = detail.getByRole('table', { name: 'Request headers' });
    expect(await sentHeaders.getByRole('row', { name: /webhook-signature/ }).textContent()).toMatch(
      /v1,[A-Za-z0-9+/=]+/,
    );
    expect(JSON.parse((await detail.getByLabel('Request body').textContent())!)).toMatchObject({
      type: 'webhook.test',
    });
    await detail.getByText('No answer came back.').waitFor();
    const first = (
      await stack.adminApi<{ deliveries: { id: string; attempt: number }[] }>(
        token,
        `/v1/admin/webhooks/${hookId}/deliveries`,
      )
    ).body.deliveries.find((d) => d.attempt === 1)!;
    expect(
      (
        await stack.adminApi<{ error: string }>(
          token,
          `/v1/admin/webhooks/${hookId}/deliveries/${first.id}`,
        )
      ).body.error,
    ).toBe('connection_refused');
    expect(await browser.checkScreen('webhook-delivery-failed')).toEqual([]);
    expect(await browser.overflowOnPhone()).toEqual([]);

    // Filtered by status, kept in the URL.
    const filter = page.getByRole('radiogroup', { name: 'Show deliveries' });
    await filter.getByText('Succeeded', { exact: true }).click();
    await page.waitForURL(/status=succeeded/);
    await page.getByTestId('empty-state').filter({ hasText: 'No succeeded deliveries.' }).waitFor();
    await filter.getByText('Failed', { exact: true }).click();
    await page.waitForURL(/status=failed/);
    await page.locator('tr[data-status="failed"]').first().waitFor();
    expect(await page.locator('tr[data-status]:not([data-status="failed"])').count()).toBe(0);
    expect(await page.locator('tr[data-status="failed"]').count()).toBe(3);

    // Rotating the secret is ★: with an 11-minute-old proof, the console asks for the password in place, then rotates.
    await ageProof(`/webhooks/${hookId}?status=failed`);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await rotate.getByText('The old one stays valid for 24 hours').waitFor();
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await prove('Rotating a webhook’s signing secret is a sensitive action.');
    const secret = (await rotate.getByTestId('secret-once').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await rotate
      .getByText('For the next 24 hours every delivery is signed with both secrets')
      .waitFor();
    expect(await browser.checkScreen('webhook-rotate-secret')).toEqual([]);
    await rotate.getByRole('button', { name: 'Done' }).click();
    await rotate.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret);
    expect((await audit('action=webhook.secret_rotated')).map((e) => e.resource_id)).toEqual([
      hookId,
    ]);
  }, 120_000);

  test('a project: its ids copied, a setting changed and found in the audit log as from → to (prefix filter in the URL, CSV export), then deleted by typing its name', async () => {
    const created = await stack.adminApi<{ id: string; publishable_key: string }>(
      token,
      '/v1/admin/projects',
      { method: 'POST', body: { name: 'Shop' } },
    );
    expect(created.status).toBe(201);
    const { id: projectId, publishable_key: key } = created.body;

    await page.goto(`${stack.consoleUrl}/projects/${projectId}`);
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    expect(await page.getByTestId('project-id').textContent()).toBe(projectId);
    expect(await page.getByTestId('publishable-key').textContent()).toBe(key);
    expect(await page.getByTestId('auth-url').textContent()).toBe(stack.authUrl);
    await page.getByRole('button', { name: 'Copy the project ID' }).click();
    await page.getByRole('button', { name: 'Copied the project ID' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(projectId);
    await page.getByRole('button', { name: 'Copy the publishable key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Storefront');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('tab', { name: 'Social sign-in' }).click();
    expect(await page.getByTestId('oauth-callback').textContent()).toBe(
      `${stack.authUrl}/v1/auth/oauth/callback`,
    );
    expect(await browser.checkScreen('project-keys')).toEqual([]);
    expect(await browser.overflowOnPhone()).toEqual([]);

    // The audit log: the prefix typed applies on its own, stays in the URL, and the update reads from → to.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('combobox', { name: 'Action or prefix' }).fill('project');
    await page.waitForURL((u) => u.searchParams.get('action') === 'project');
    const updated = (await audit(`action=project.*&project_id=${projectId}`)).filter(
      (e) => e.action === 'project.updated',
    );
    expect(updated).toHaveLength(1);
    // The form sends only what changed: the one field is the event's only change.
    expect(updated[0].data.changes).toEqual({ name: { from: 'Shop', to: 'Storefront' } });
    const row = page.locator(`tr[data-event-id="${updated[0].id}"]`);
    await row.waitFor();
    expect(await row.getByTestId('audit-changes').textContent()).toBe('name: Shop → Storefront');
    // Names, not ids, each a link to its page.
    expect(await row.getByRole('link', { name: stack.admin.email }).getAttribute('href')).toBe(
      `/console/users/${adminId}`,
    );
    expect(await row.getByRole('link', { name: 'Storefront' }).first().getAttribute('href')).toBe(
      `/console/projects/${projectId}`,
    );
    // Until the unfiltered page's rows are gone: project.created and project.updated only.
    const actions = () =>
      page
        .locator('tr[data-action]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action') ?? ''));
    await eventually(async () => (await actions()).every((a) => a.startsWith('project.')));
    expect((await actions()).length).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    expect(await browser.checkScreen('audit-changes')).toEqual([]);
    expect(await browser.overflowOnPhone()).toEqual([]);

    // The URL keeps the filter: a reload shows the same.
    await page.reload();
    await row.waitFor();
    expect(await page.getByRole('combobox', { name: 'Action or prefix' }).inputValue()).toBe(
      'project',
    );

    // Export CSV with the filter: the header, and the update's row.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(csv[0]).toBe(CSV_HEADER);
    const line = csv.find((l) => l.startsWith(`${updated[0].id},`));
    expect(line).toContain(`,project.updated,admin,${adminId},project,${projectId},`);
    expect(line).toContain('Storefront');
    expect(csv.slice(1).every((l) => l.split(',')[2].startsWith('project.'))).toBe(true);

    // Deleting is ★ and typed: the button waits for the exact name, the proof is asked in place.
    await ageProof(`/projects/${projectId}`);
    await page.getByRole('heading', { name: 'Storefront', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Storefront?' });
    const submit = confirm.getByRole('button', { name: 'Delete project' });
    expect(await submit.isDisabled()).toBe(true);
    await confirm.getByRole('textbox', { name: /Type the project’s name/ }).fill('Shop');
    expect(await submit.isDisabled()).toBe(true);
    await confirm.getByRole('textbox', { name: /Type the project’s name/ }).fill('Storefront');
    expect(await browser.checkScreen('project-delete')).toEqual([]);
    await submit.click();
    await prove('Deleting a project is a sensitive action.');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect((await stack.adminApi(token, `/v1/admin/projects/${projectId}`)).status).toBe(404);
    expect((await audit('action=project.deleted')).map((e) => e.resource_id)).toEqual([projectId]);
  }, 120_000);

  test('a tenant of 400 projects: the overview shows the 10 most active and "Other", at a height that fits', async () => {
    const db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL }).initialize();
    try {
      await db.query(
        `INSERT INTO projects (tenant_id, name, publishable_key)
         SELECT c.tenant_id, 'Bulk ' || lpad(g::text, 3, '0'), 'pk_test_bulk_' || g || '_' || md5(random()::text)
         FROM projects c, generate_series(1, 400) g WHERE c.is_console`,
      );
    } finally {
      await db.destroy();
    }
    // One busy project: two sign-ups and a sign-in put it first.
    const busy = await stack.adminApi<{ id: string; publishable_key: string }>(
      token,
      '/v1/admin/projects',
      { method: 'POST', body: { name: 'Busy app' } },
    );
    for (const email of ['one@busy.test', 'two@busy.test'])
      expect(
        (
          await stack.authApi(busy.body.publishable_key, '/v1/auth/sign-up', {
            body: { email, password: 'a sturdy passphrase 42' },
          })
        ).status,
      ).toBe(201);
    expect(
      (
        await stack.authApi(busy.body.publishable_key, '/v1/auth/sign-in', {
          body: { identifier: 'one@busy.test', password: 'a sturdy passphrase 42' },
        })
      ).status,
    ).toBe(200);
    const stats = (await stack.adminApi<{ projects: unknown[] }>(token, '/v1/admin/stats?days=30'))
      .body;
    expect(stats.projects.length).toBeGreaterThanOrEqual(402);

    await page.goto(`${stack.consoleUrl}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const rows = page.getByTestId('by-project').locator('tbody tr');
    await rows.nth(10).waitFor();
    expect(await rows.count()).toBe(11);
    expect(await rows.first().getAttribute('data-project-id')).toBe(busy.body.id);
    expect(await rows.first().locator('td[data-metric="sign_ups"]').textContent()).toBe('2');
    expect(await rows.last().getByRole('rowheader').textContent()).toBe(
      `Other (${stats.projects.length - 10} projects)`,
    );
    await page.getByText(`The 10 most active of ${stats.projects.length} projects`).waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(2500);
    // Whole numbers on the count axes.
    const yTicks = page.locator('[class*="yAxis"] .recharts-cartesian-axis-tick-value');
    await yTicks.first().waitFor();
    const ticks = await yTicks.allTextContents();
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.every((t) => /^\d+$/.test(t.trim()))).toBe(true);
    expect(await browser.checkScreen('overview-many-projects')).toEqual([]);
    expect(await browser.overflowOnPhone()).toEqual([]);

    // The projects list is paged: 20 a page.
    await page.goto(`${stack.consoleUrl}/projects`);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Page 2', exact: true }).waitFor();
  }, 120_000);
});
