import type { Page } from 'playwright-core';
import { ConsoleBrowser, signInThroughPage } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

interface ApiResource {
  id: string;
  identifier: string;
  name: string;
  scopes: { name: string; description: string }[];
  access_token_ttl_seconds: number | null;
  allow_dynamic_clients: boolean;
}

/**
 * The console's API resources (issue 34 §4) in Chromium against the stack `npm start` starts: an
 * API registered under the project's OpenID Connect tab (a refused identifier shown on its field),
 * its scopes edited, then deleted; each screen scanned with axe in both themes.
 */
describe('admin console: API resources of a project (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  let projectId = '';
  const resourcesOf = async () =>
    (
      await stack.adminApi<{ api_resources: ApiResource[] }>(
        token,
        `/v1/admin/projects/${projectId}/api-resources`,
      )
    ).body.api_resources;

  beforeAll(async () => {
    await stack.start();
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
    ]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    token = await stack.adminToken();
    const created = await stack.adminApi<{ id: string }>(token, '/v1/admin/projects', {
      method: 'POST',
      body: { name: 'Agents', settings: { oidc: { enabled: true, dynamic_registration: true } } },
    });
    expect(created.status).toBe(201);
    projectId = created.body.id;
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

  test('registers an MCP server with two scopes (an http identifier off localhost refused on its field), edits its scopes, deletes it', async () => {
    await page.goto(`${stack.consoleUrl}/projects/${projectId}?tab=oidc`);
    const region = page.getByRole('region', { name: 'API resources' });
    await region.getByTestId('empty-state').waitFor();

    await page.getByRole('button', { name: 'New API resource' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API resource' });
    await dialog
      .getByRole('textbox', { name: 'Identifier', exact: true })
      .fill('http://mcp.example.com/mcp');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Agents MCP server');
    await dialog.getByRole('textbox', { name: 'Scope 1 name' }).fill('mcp:tools');
    await dialog
      .getByRole('textbox', { name: 'Scope 1 description' })
      .fill('Use the tools of the Agents MCP server');
    await dialog.getByRole('button', { name: 'Add scope' }).click();
    await dialog.getByRole('textbox', { name: 'Scope 2 name' }).fill('mcp:read');
    await dialog.getByRole('textbox', { name: 'Scope 2 description' }).fill('Read your agents');
    await dialog.getByRole('textbox', { name: /^Access token lifetime/ }).fill('300');
    await dialog.getByRole('switch', { name: 'Allow self-registered clients' }).click();
    await dialog.getByRole('button', { name: 'Create API resource' }).click();
    await dialog.locator('input[aria-invalid="true"]').first().waitFor();
    expect(
      await dialog
        .getByRole('textbox', { name: 'Identifier', exact: true })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(await resourcesOf()).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await browser.checkScreen('project-api-resource-form')).toEqual([]);

    await dialog
      .getByRole('textbox', { name: 'Identifier', exact: true })
      .fill('https://mcp.example.com/mcp');
    await dialog.getByRole('button', { name: 'Create API resource' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [stored] = await resourcesOf();
    expect(stored).toEqual({
      id: expect.any(String),
      identifier: 'https://mcp.example.com/mcp',
      name: 'Agents MCP server',
      scopes: [
        { name: 'mcp:tools', description: 'Use the tools of the Agents MCP server' },
        { name: 'mcp:read', description: 'Read your agents' },
      ],
      access_token_ttl_seconds: 300,
      allow_dynamic_clients: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = page.locator(`tr[data-resource-id="${stored.id}"]`);
    await row.getByText('mcp:tools, mcp:read').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await browser.checkScreen('project-api-resources')).toEqual([]);

    // Edit: one scope removed, the other's description changed, back to the project's token lifetime.
    await row.getByRole('button', { name: 'Edit Agents MCP server' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “Agents MCP server”' });
    await edit.getByRole('button', { name: 'Remove scope 2' }).click();
    await edit.getByRole('textbox', { name: 'Scope 1 description' }).fill('Run the agents’ tools');
    await edit.getByRole('textbox', { name: /^Access token lifetime/ }).fill('');
    await edit.getByRole('button', { name: 'Save API resource' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByText("Project's").waitFor();
    expect(await resourcesOf()).toEqual([
      {
        ...stored,
        scopes: [{ name: 'mcp:tools', description: 'Run the agents’ tools' }],
        access_token_ttl_seconds: null,
        updated_at: expect.any(String),
      },
    ]);

    // Delete: asks first; the list is empty again, and the audit log has the three changes.
    await row.getByRole('button', { name: 'Delete Agents MCP server' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this API resource?' })
      .getByRole('button', { name: 'Delete API resource' })
      .click();
    await region.getByTestId('empty-state').waitFor();
    expect(await resourcesOf()).toEqual([]);
    const audit = (
      await stack.adminApi<{ events: { action: string; resource_id: string }[] }>(
        token,
        '/v1/admin/audit?limit=100',
      )
    ).body.events.filter((e) => e.resource_id === stored.id);
    expect(audit.map((e) => e.action)).toEqual([
      'api_resource.deleted',
      'api_resource.updated',
      'api_resource.created',
    ]);
  });
});
