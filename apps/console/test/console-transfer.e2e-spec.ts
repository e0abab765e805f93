import { readFileSync } from 'node:fs';
import { hashSync } from 'bcrypt';
import type { Page, Route } from 'playwright-core';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL } from '@gatehouse/testing';
import { ConsoleBrowser, signInThroughPage } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

/** The file: 1,210 lines, a user with a bcrypt hash on line 2, a blank line 600, a bad email on line 1,203 and broken JSON on line 1,205. */
const GOOD_HASH = hashSync('imported password 42', 10);
function importFile(): string {
  const lines: string[] = [];
  for (let n = 1; n <= 1210; n++) {
    if (n === 2)
      lines.push(
        JSON.stringify({
          email: 'hashed@transfer.test',
          email_verified: true,
          password_hash: GOOD_HASH,
        }),
      );
    else if (n === 600) lines.push('');
    else if (n === 1203) lines.push(JSON.stringify({ email: 'not an email' }));
    else if (n === 1205) lines.push('{"email": "broken@transfer.test",');
    else lines.push(JSON.stringify({ email: `user${n}@transfer.test`, metadata: { n } }));
  }
  return lines.join('\n') + '\n';
}

/**
 * Users → Import users and Export users (issue 36 §2), driven in Chromium on the stack `npm start`
 * runs: an NDJSON file with bad lines goes in batch by batch (the counts checked while the second
 * batch is held back), the per-line report names the file's line numbers, and an export with
 * hashes from an aged session asks for the password in place and downloads the imported hash.
 * One journey; each screen scanned with axe-core in both themes.
 */
describe('admin console: import and export users (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  let projectId = '';

  beforeAll(async () => {
    await stack.start();
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
    ]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    token = await stack.adminToken();
    const project = await stack.adminApi<{ id: string }>(token, '/v1/admin/projects', {
      method: 'POST',
      body: { name: 'Transfer app' },
    });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    await signInThroughPage(page, stack.consoleUrl, stack.admin.email, stack.admin.password);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  test('import a file with bad lines, watching the counts, read the per-line report; export with hashes after the proof asked in place', async () => {
    const usersOfProject = async () =>
      (
        await stack.adminApi<{ pagination: { total: number } }>(
          token,
          `/v1/admin/users?project_id=${projectId}&limit=1`,
        )
      ).body.pagination.total;

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Import users' }).click();
    await page.getByRole('heading', { name: 'Import users', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Transfer app' }).click();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'users.ndjson',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(importFile()),
    });
    await page.getByText('users.ndjson').waitFor();
    // The vendor formats are the CLI's: the page says how, naming the chosen project.
    await page.getByText(`npm run cli -- users import --project ${projectId}`).waitFor();
    expect(await browser.checkScreen('users-import')).toEqual([]);

    // The first batch (lines 1–1,000) goes through; the second is held until the counts were read.
    const requests: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/admin/projects/*/users/import**', async (route: Route) => {
      requests.push(route.request().url());
      if (requests.length === 2) await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const progress = page.getByRole('status', { name: 'Import progress' });
    const count = (label: string) => progress.getByTestId(`count-${label}`);
    await progress.getByRole('heading', { name: 'Importing…' }).waitFor();
    await count('lines-read')
      .filter({ hasText: /^1,000$/ })
      .waitFor();
    expect(await count('created').textContent()).toBe('999');
    expect(await count('rejected').textContent()).toBe('0');
    expect(await usersOfProject()).toBe(999);
    // The bar follows the lines answered, not the bytes the browser has read (the whole file at once).
    await progress.getByText(/^\d{1,2} % of users\.ndjson imported$/).waitFor();
    expect(await page.getByRole('table', { name: 'Lines not imported' }).count()).toBe(0);
    expect(await browser.checkScreen('users-import-progress')).toEqual([]);
    release();

    await progress.getByRole('heading', { name: 'Import finished' }).waitFor();
    expect(requests).toHaveLength(2);
    for (const url of requests) expect(new URL(url).searchParams.get('on_conflict')).toBe('skip');
    expect(await count('lines-read').textContent()).toBe('1,210');
    // 1,210 lines: one blank, two refused, 1,207 users.
    expect(await count('created').textContent()).toBe('1,207');
    expect(await count('rejected').textContent()).toBe('2');
    expect(await count('skipped').textContent()).toBe('0');
    await progress.getByText('100 % of users.ndjson imported').waitFor();
    expect(await usersOfProject()).toBe(1207);

    // The report names the file's own line numbers (the second batch started at line 1,001).
    const report = page.getByRole('table', { name: 'Lines not imported' });
    const rows = await report.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^1203validation-error.*email/);
    expect(rows[1]).toMatch(/^1205invalid-json/);
    expect(await browser.checkScreen('users-import-report')).toEqual([]);
    expect(await browser.overflowOnPhone()).toEqual([]);
    await page.unroute('**/v1/admin/projects/*/users/import**');

    // The same file again, stopped during its first batch: that batch is answered (every user there already: skipped), no other is sent.
    const again: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const heldFirst = new Promise<void>((resolve) => (releaseFirst = resolve));
    await page.route('**/v1/admin/projects/*/users/import**', async (route: Route) => {
      again.push(route.request().url());
      if (again.length === 1) await heldFirst;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('button', { name: 'Stop after this batch' }).click();
    releaseFirst();
    await progress.getByRole('heading', { name: 'Import stopped' }).waitFor();
    await progress.getByText('Lines after 1,000 were not sent.').waitFor();
    expect(again).toHaveLength(1);
    expect(await count('lines-read').textContent()).toBe('1,000');
    expect(await count('skipped').textContent()).toBe('999');
    expect(await count('created').textContent()).toBe('0');
    expect(await usersOfProject()).toBe(1207);
    await page.unroute('**/v1/admin/projects/*/users/import**');

    // Export with hashes from a proof 11 minutes old (the console project's reauthentication_max_age_seconds is 600):
    // the sessions' auth_time moves back, and a reload renews the page's token from the refresh cookie, which carries it.
    const db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL }).initialize();
    try {
      await db.query(
        `UPDATE sessions SET auth_time = now() - interval '11 minutes' WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
        [stack.admin.email],
      );
    } finally {
      await db.destroy();
    }
    await page.goto(`${stack.consoleUrl}/users?project=${projectId}`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Export users' }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export users' });
    expect(await exportDialog.getByRole('combobox', { name: 'Project' }).inputValue()).toBe(
      'Transfer app',
    );
    await exportDialog
      .getByRole('checkbox', { name: 'Include password hashes and TOTP secrets' })
      .check();
    await exportDialog.getByRole('button', { name: 'Export', exact: true }).click();
    const proof = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await proof
      .getByText('Exporting password hashes and TOTP secrets needs a recent proof of identity.')
      .waitFor();
    await proof.getByLabel('Your password').fill(stack.admin.password);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      proof.getByRole('button', { name: 'Confirm' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`users-${projectId}.ndjson`);
    const exported = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { email: string; status: string; password_hash?: unknown });
    expect(exported).toHaveLength(1207);
    // The imported hash comes out as it went in, ready for another import.
    expect(exported.find((l) => l.email === 'hashed@transfer.test')).toMatchObject({
      status: 'active',
      password_hash: GOOD_HASH,
    });
    expect(exported.find((l) => l.email === 'user1210@transfer.test')).toMatchObject({
      status: 'active',
    });
    await exportDialog.waitFor({ state: 'detached' });
    const audited = await stack.adminApi<{ events: { data: Record<string, unknown> }[] }>(
      token,
      `/v1/admin/audit?action=users.*&project_id=${projectId}`,
    );
    expect(
      audited.body.events.map((e) => (e as unknown as { action: string }).action).sort(),
    ).toEqual([
      'users.exported_with_secrets',
      'users.imported',
      'users.imported',
      'users.imported',
    ]);

    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 300_000);
});
