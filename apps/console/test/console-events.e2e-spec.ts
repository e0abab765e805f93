import type { Page } from 'playwright-core';
import { eventually } from '@gatehouse/testing';
import { ConsoleBrowser, signInThroughPage } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
}
interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt: number;
  response_status: number | null;
}
interface AuditEvent {
  id: string;
  action: string;
  resource_id: string | null;
}
interface Counts {
  sign_ins: number;
  sign_ups: number;
  failed_sign_ins: number;
  lockouts: number;
}
interface Stats {
  from: string;
  to: string;
  projects: { id: string; name: string }[];
  daily: (Counts & { date: string; project_id: string })[];
  totals: Counts;
  active_sessions: number;
  active_sessions_by_project: { project_id: string; count: number }[];
  webhook_deliveries: {
    succeeded: number;
    failed: number;
    pending: number;
    success_rate: number | null;
  };
}

/**
 * The console's event screens (issue 22) as an admin uses them, in Chromium against the stack
 * `npm start` starts: a webhook created, tested against a real receiver, redelivered, edited,
 * disabled and deleted; the audit log filtered down to those changes; the overview counting real
 * sign-ins through the auth runtime. One browser and one stack; the journeys build on each other.
 */
describe('admin console: webhooks, audit log and overview (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  let webhookId = '';
  let testEventId = '';
  const hookUrl = () => `${stack.receiver.url}/hook`;
  const today = () => new Date().toISOString().slice(0, 10);

  const overflowOnPhone = () => browser.overflowOnPhone();

  async function deliveries(): Promise<Delivery[]> {
    return (
      await stack.adminApi<{ deliveries: Delivery[] }>(
        token,
        `/v1/admin/webhooks/${webhookId}/deliveries`,
      )
    ).body.deliveries;
  }

  /** The ids of the audit events the table shows, once it is not showing the previous filter's rows. */
  async function auditRowIds(): Promise<string[]> {
    const table = page.getByTestId('audit-events');
    if ((await table.getAttribute('aria-busy')) === 'true') return [];
    return table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id') ?? ''));
  }

  beforeAll(async () => {
    await stack.start();
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
    ]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    token = await stack.adminToken();
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

  test('webhooks: a refused URL is shown on its field; a webhook for all events shows its signing secret once', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    expect(await page.getByTestId('empty-state').textContent()).toMatch(/No webhooks yet/);

    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
    await dialog.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('option', { name: 'All events (*)' }).click();
    await page.keyboard.press('Tab');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    // The server's `errors.url` lands on the URL field, nothing is created.
    await dialog.locator('input[aria-invalid="true"]').first().waitFor();
    expect(await dialog.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(
      (await stack.adminApi<{ webhooks: Webhook[] }>(token, '/v1/admin/webhooks')).body.webhooks,
    ).toEqual([]);

    await dialog.getByLabel('Endpoint URL').fill(hookUrl());
    await dialog.getByLabel('Description').fill('Console e2e receiver');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await dialog.getByTestId('secret-once').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const listed = (await stack.adminApi<{ webhooks: Webhook[] }>(token, '/v1/admin/webhooks')).body
      .webhooks;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      url: hookUrl(),
      events: ['*'],
      description: 'Console e2e receiver',
      enabled: true,
    });
    expect(JSON.stringify(listed[0])).not.toContain(secret);
    webhookId = listed[0].id;

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: hookUrl() }).waitFor();
    expect(await page.content()).not.toContain(secret);
    // Once only: a new form has no secret in it.
    await page.getByRole('button', { name: 'New webhook' }).click();
    expect(
      await page.getByRole('dialog', { name: 'New webhook' }).getByTestId('secret-once').count(),
    ).toBe(0);
    await page
      .getByRole('dialog', { name: 'New webhook' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await page.getByRole('dialog', { name: 'New webhook' }).waitFor({ state: 'hidden' });

    expect(await browser.checkScreen('webhooks')).toEqual([]);
    expect(await overflowOnPhone()).toEqual([]);
  });

  test('webhook detail: a test event reaches the receiver and shows as succeeded with 200; a 500 shows as failed; redelivery succeeds', async () => {
    stack.receiver.clear();
    await page.getByRole('link', { name: hookUrl() }).click();
    await page.getByRole('heading', { name: 'Webhook', exact: true }).waitFor();
    expect(await page.getByTestId('webhook-url').textContent()).toBe(hookUrl());

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event queued' }).waitFor();
    const received = await stack.receiver.waitFor(
      (r) => r.path === '/hook' && (JSON.parse(r.body) as { type: string }).type === 'webhook.test',
    );
    testEventId = (JSON.parse(received.body) as { id: string }).id;
    expect(received.headers['webhook-id']).toBe(testEventId);
    expect(
      await page.getByRole('status').filter({ hasText: 'Test event queued' }).textContent(),
    ).toContain(testEventId);

    // No reload: the list polls while the test delivery is on its way.
    const testRows = page.locator('tr[data-event-type="webhook.test"]');
    const succeeded = testRows.and(page.locator('[data-status="succeeded"]'));
    await succeeded.first().waitFor({ timeout: 20_000 });
    const firstRow = await succeeded.first().locator('td').allTextContents();
    expect(firstRow[1]).toBe('succeeded');
    expect(firstRow[2]).toBe('1');
    expect(firstRow[3]).toBe('200');
    expect(firstRow[4]).toMatch(/^\d+ ms$/);
    const api = (await deliveries()).filter((d) => d.event_type === 'webhook.test');
    expect(api).toEqual([
      expect.objectContaining({
        event_id: testEventId,
        status: 'succeeded',
        attempt: 1,
        response_status: 200,
      }),
    ]);
    expect(await browser.checkScreen('webhook-detail')).toEqual([]);
    expect(await overflowOnPhone()).toEqual([]);

    // The receiver breaks: a redelivery fails with its 500 (and its scheduled retry fails too).
    stack.receiver.respond = () => ({ status: 500, body: '{"error":"down"}' });
    await page.getByRole('button', { name: 'Redeliver webhook.test, attempt 1' }).click();
    const failed = testRows.and(page.locator('[data-status="failed"]'));
    await failed.first().waitFor({ timeout: 20_000 });
    const failedRow = await page
      .locator('tr[data-event-type="webhook.test"][data-attempt="2"]')
      .locator('td')
      .allTextContents();
    expect(failedRow.slice(1, 4)).toEqual(['failed', '2', '500']);

    // Back up: redeliver the last failed attempt; the event arrives again with the same webhook-id and succeeds.
    // Until no attempt is queued (the failed attempt's retry included).
    await eventually(async () => !(await deliveries()).some((d) => d.status === 'pending'));
    stack.receiver.respond = () => ({ status: 200, body: '{}' });
    const before = stack.receiver.requests.length;
    const lastAttempt = Math.max(
      ...(await deliveries()).filter((d) => d.event_type === 'webhook.test').map((d) => d.attempt),
    );
    await page
      .getByRole('button', { name: `Redeliver webhook.test, attempt ${lastAttempt}` })
      .click();
    const again = await stack.receiver.waitFor(
      (r) =>
        stack.receiver.requests.indexOf(r) >= before && r.headers['webhook-id'] === testEventId,
    );
    expect(JSON.parse(again.body)).toMatchObject({ id: testEventId, type: 'webhook.test' });
    const newest = page.locator('tr[data-event-type="webhook.test"]').first();
    await page
      .locator(`tr[data-event-type="webhook.test"][data-status="succeeded"]`)
      .nth(1)
      .waitFor({ timeout: 20_000 });
    expect((await newest.locator('td').allTextContents()).slice(1, 4)).toEqual([
      'succeeded',
      String(lastAttempt + 1),
      '200',
    ]);
    const attempts = (await deliveries()).filter((d) => d.event_id === testEventId);
    expect(attempts.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [lastAttempt + 1, 'succeeded', 200],
      ...Array.from({ length: lastAttempt - 1 }, (_, i) => [lastAttempt - i, 'failed', 500]),
      [1, 'succeeded', 200],
    ]);
  }, 120_000);

  test('webhook detail: its events are edited and it is disabled, as the API then answers', async () => {
    const settings = page.getByRole('region', { name: 'Settings' });
    const events = settings.getByRole('combobox', { name: 'Events' });
    await events.click();
    await page.getByRole('option', { name: 'user.created', exact: true }).click();
    await page.getByRole('option', { name: 'session.created', exact: true }).click();
    await page.keyboard.press('Tab');
    await settings.getByLabel('Description').fill('Only sign-ups and sign-ins');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(
      (await stack.adminApi<Webhook>(token, `/v1/admin/webhooks/${webhookId}`)).body,
    ).toMatchObject({
      events: ['user.created', 'session.created'],
      description: 'Only sign-ups and sign-ins',
      enabled: true,
    });

    // A refused change is shown on its field and changes nothing.
    await settings.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await settings.locator('input[aria-invalid="true"]').first().waitFor();
    expect(await settings.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect((await stack.adminApi<Webhook>(token, `/v1/admin/webhooks/${webhookId}`)).body.url).toBe(
      hookUrl(),
    );
    await settings.getByLabel('Endpoint URL').fill(hookUrl());

    await page.getByRole('switch', { name: 'Enabled: events are delivered' }).click();
    await page.getByRole('switch', { name: 'Disabled: no events are delivered' }).waitFor();
    expect(
      (await stack.adminApi<Webhook>(token, `/v1/admin/webhooks/${webhookId}`)).body.enabled,
    ).toBe(false);
    await page.getByRole('link', { name: '← All webhooks' }).click();
    await page
      .getByRole('row', { name: new RegExp(hookUrl()) })
      .getByText('Disabled', { exact: true })
      .waitFor();
    await page.getByRole('link', { name: hookUrl() }).click();
    await page.getByRole('heading', { name: 'Webhook', exact: true }).waitFor();
  });

  test('overview: real sign-ins, a sign-up, failed sign-ins and a lockout through the auth runtime are counted as the stats API counts them', async () => {
    const created = await stack.adminApi<{ id: string; publishable_key: string }>(
      token,
      '/v1/admin/projects',
      { method: 'POST', body: { name: 'Storefront' } },
    );
    expect(created.status).toBe(201);
    const { id: projectId, publishable_key: key } = created.body;
    const email = 'shopper@example.com';
    const password = 'a sturdy passphrase 42';
    expect(
      (await stack.authApi(key, '/v1/auth/sign-up', { body: { email, password } })).status,
    ).toBe(201);
    for (let i = 0; i < 2; i++)
      expect(
        (await stack.authApi(key, '/v1/auth/sign-in', { body: { identifier: email, password } }))
          .status,
      ).toBe(200);
    expect(
      (
        await stack.authApi(key, '/v1/auth/sign-in', {
          body: { identifier: email, password: 'not the passphrase' },
        })
      ).status,
    ).toBe(401);
    // Five failures in a row: five failed sign-ins, the fifth also starting the identifier's lock.
    for (let i = 0; i < 5; i++)
      expect(
        (
          await stack.authApi(key, '/v1/auth/sign-in', {
            body: { identifier: 'nobody@example.com', password: 'guess' + i },
          })
        ).status,
      ).toBe(401);

    const stats = (await stack.adminApi<Stats>(token, '/v1/admin/stats?days=30')).body;
    const mine = stats.daily.filter((d) => d.project_id === projectId);
    expect(mine).toEqual([
      {
        date: today(),
        project_id: projectId,
        sign_ins: 3,
        sign_ups: 1,
        failed_sign_ins: 6,
        lockouts: 1,
      },
    ]);

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator(`tr[data-project-id="${projectId}"]`);
    await row.waitFor();
    const cell = (metric: string) => row.locator(`td[data-metric="${metric}"]`).textContent();
    expect(await cell('sign_ins')).toBe('3');
    expect(await cell('sign_ups')).toBe('1');
    expect(await cell('failed_sign_ins')).toBe('6');
    expect(await cell('lockouts')).toBe('1');
    expect(await cell('active_sessions')).toBe(
      String(stats.active_sessions_by_project.find((p) => p.project_id === projectId)?.count),
    );
    // The tenant-wide cards say what the API says (nothing signed in between: the admin's token was taken first).
    expect(await page.getByTestId('stat-failed_sign_ins').textContent()).toBe(
      String(stats.totals.failed_sign_ins),
    );
    expect(await page.getByTestId('stat-sign_ups').textContent()).toBe(
      String(stats.totals.sign_ups),
    );
    expect(await page.getByTestId('stat-lockouts').textContent()).toBe(
      String(stats.totals.lockouts),
    );
    expect(await page.getByTestId('stat-sign_ins').textContent()).toBe(
      String(stats.totals.sign_ins),
    );
    const { succeeded, failed } = stats.webhook_deliveries;
    expect(succeeded).toBeGreaterThanOrEqual(2);
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('stat-webhook_success_rate').textContent()).toBe(
      `${((succeeded / (succeeded + failed)) * 100).toFixed(1)} %`,
    );
    expect(await page.getByText(`${succeeded} succeeded · ${failed} failed`).count()).toBe(1);

    // The daily numbers, the charts' text alternative, have today's row.
    await page.locator('summary', { hasText: 'Numbers per day' }).click();
    const todayRow = page
      .getByTestId('daily-numbers')
      .getByRole('row', { name: new RegExp(`^${today()}`) });
    expect(await todayRow.locator('td').allTextContents()).toEqual(
      [
        stats.totals.sign_ins,
        stats.totals.sign_ups,
        stats.totals.failed_sign_ins,
        stats.totals.lockouts,
      ].map(String),
    );
    expect(await page.locator('.recharts-surface').count()).toBeGreaterThanOrEqual(2);
    expect(await browser.checkScreen('overview')).toEqual([]);
    expect(await overflowOnPhone()).toEqual([]);

    // One project: the cards show its numbers only.
    await page.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Storefront' }).click();
    await page.getByText('of Storefront.').waitFor();
    expect(await page.getByTestId('stat-sign_ins').textContent()).toBe('3');
    expect(await page.getByTestId('stat-failed_sign_ins').textContent()).toBe('6');
  }, 120_000);

  test('webhook delete asks first, then removes it', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: hookUrl() }).click();
    await page.getByRole('heading', { name: 'Webhook', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await stack.adminApi(token, `/v1/admin/webhooks/${webhookId}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByTestId('empty-state').waitFor();
    expect((await stack.adminApi(token, `/v1/admin/webhooks/${webhookId}`)).status).toBe(404);
  });

  test('audit log: the webhook changes are found by action and date range, each with its full JSON', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByTestId('audit-events').waitFor();

    // An end before the start is refused on the end's field.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From (UTC day)').fill(today());
    await page.getByLabel('To (UTC day, included)').fill(yesterday);
    await page.locator('input[aria-invalid="true"]').first().waitFor();
    expect(await page.getByLabel('To (UTC day, included)').getAttribute('aria-invalid')).toBe(
      'true',
    );

    for (const action of [
      'webhook.created',
      'webhook.test',
      'webhook.updated',
      'webhook.deleted',
    ]) {
      await page.getByRole('combobox', { name: 'Action' }).fill(action);
      await page.getByLabel('From (UTC day)').fill(today());
      await page.getByLabel('To (UTC day, included)').fill(today());
      // The filters apply as they are typed and stay in the URL.
      await page.waitForURL(
        (url) =>
          url.searchParams.get('action') === action &&
          url.searchParams.get('start_date') === today() &&
          url.searchParams.get('end_date') === today(),
      );
      const api = (
        await stack.adminApi<{ events: AuditEvent[] }>(
          token,
          `/v1/admin/audit?action=${action}&start_date=${today()}&end_date=${today()}`,
        )
      ).body.events;
      expect(api.length).toBeGreaterThan(0);
      expect(api.every((e) => e.resource_id === webhookId)).toBe(true);
      await eventually(async () => (await auditRowIds()).join() === api.map((e) => e.id).join());
      expect(
        await page
          .getByTestId('audit-events')
          .locator(`tbody tr:not([data-action="${action}"])`)
          .count(),
      ).toBe(0);
    }

    // Edited (events and description in one change), then disabled: two updates; the newest opens as JSON.
    await page.getByRole('combobox', { name: 'Action' }).fill('webhook.updated');
    await page.waitForURL(/action=webhook\.updated/);
    const updates = (
      await stack.adminApi<{ events: AuditEvent[] }>(
        token,
        `/v1/admin/audit?action=webhook.updated&start_date=${today()}&end_date=${today()}`,
      )
    ).body.events;
    expect(updates).toHaveLength(2);
    await eventually(async () => (await auditRowIds()).join() === updates.map((e) => e.id).join());

    await page
      .getByRole('button', { name: /^webhook\.updated at .*show the event's JSON$/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Event webhook.updated' });
    const shown = JSON.parse(
      (await dialog.getByTestId('audit-event-json').textContent())!,
    ) as AuditEvent;
    expect(shown).toEqual(updates[0]);
    expect(await browser.checkScreen('audit')).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await overflowOnPhone()).toEqual([]);
  });
});
