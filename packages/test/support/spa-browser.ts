import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './spa-site';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** `SDK_SCREENSHOTS=1` refreshes docs/screenshots/sdk-react-spa-<screen>.png. */
// eslint-disable-next-line no-restricted-properties -- test switch
const SCREENSHOTS = process.env.SDK_SCREENSHOTS === '1';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Debian's Chromium driven by playwright-core, as a person uses the React example: page errors and
 * requests to any host but the allowed ones are recorded (there must be none: the example loads
 * nothing from the network), a CDP virtual authenticator (CTAP2, resident keys, user verification)
 * holds passkeys, and each screen can be scanned with axe-core in the light and dark schemes.
 */
export class SpaBrowser {
  readonly problems: string[] = [];
  readonly foreignRequests: string[] = [];

  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
  ) {}

  static async launch(allowedHosts: string[]): Promise<SpaBrowser> {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext({
      viewport: { width: 1024, height: 900 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const b = new SpaBrowser(browser, page);
    page.on('pageerror', (err) => b.problems.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!['data:', 'blob:'].includes(url.protocol) && !allowedHosts.includes(url.host))
        b.foreignRequests.push(req.url());
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return b;
  }

  /** axe-core's serious and critical violations (WCAG 2.1 A/AA and best practices) in both colour schemes; with SDK_SCREENSHOTS=1 a screenshot (light). */
  async checkScreen(name: string): Promise<AxeViolation[]> {
    const found: AxeViolation[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      await this.page.evaluate(AXE);
      const result = await this.page.evaluate(
        (opts) =>
          (
            window as unknown as {
              axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> };
            }
          ).axe.run(document, opts),
        {
          runOnly: {
            type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
          },
          resultTypes: ['violations'],
        },
      );
      found.push(
        ...result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({
            id: `${name} ${scheme}: ${v.id}`,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
          })),
      );
      if (SCREENSHOTS && scheme === 'light') {
        const dir = join(ROOT, 'docs', 'screenshots');
        mkdirSync(dir, { recursive: true });
        await this.page.screenshot({
          path: join(dir, `sdk-react-spa-${name}.png`),
          fullPage: true,
        });
      }
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    return found;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
