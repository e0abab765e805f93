import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..', '..', '..');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WEBAUTHN_UMD = readFileSync(
  join(ROOT, 'node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js'),
  'utf8',
);
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** `OIDC_SCREENSHOTS=1` (or CONSOLE_SCREENSHOTS=1) refreshes docs/oidc/<screen>-<theme>.png. */
// eslint-disable-next-line no-restricted-properties -- test switch
const SCREENSHOTS = process.env.OIDC_SCREENSHOTS === '1' || process.env.CONSOLE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(ROOT, 'docs', 'oidc');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Debian's Chromium driven by playwright-core, as a person uses the hosted pages: every request to
 * another host than the allowed ones is recorded (there must be none), every CSP violation and
 * page error is recorded (there must be none), each screen can be scanned with axe-core in both
 * themes, and a CDP virtual authenticator holds passkeys.
 */
export class PagesBrowser {
  readonly problems: string[] = [];
  readonly foreignRequests: string[] = [];

  private constructor(
    private readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  static async launch(allowedHosts: string[]): Promise<PagesBrowser> {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext({
      viewport: { width: 1024, height: 800 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const b = new PagesBrowser(browser, context, page);
    // Every tab is watched: the first one, and those opened later (a magic link in a new tab).
    b.watch(page, allowedHosts);
    context.on('page', (p) => b.watch(p, allowedHosts));
    return b;
  }

  private watch(page: Page, allowedHosts: string[]): void {
    page.on('console', (msg) => {
      const text = msg.text();
      if (/Content Security Policy|Refused to/i.test(text))
        this.problems.push(`CSP: ${text} (${page.url()})`);
    });
    page.on('pageerror', (err) => this.problems.push(`page error: ${err.message} (${page.url()})`));
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!['data:', 'blob:'].includes(url.protocol) && !allowedHosts.includes(url.host))
        this.foreignRequests.push(req.url());
    });
  }

  /** A CTAP2 platform authenticator with resident keys and user verification (Chrome's virtual authenticator). */
  async addAuthenticator(): Promise<void> {
    const cdp = await this.context.newCDPSession(this.page);
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
  }

  /**
   * Registers a passkey from the page now open (its origin is the passkey's origin) with a bearer
   * token: @simplewebauthn/browser is evaluated into the page (outside its CSP, as a test tool).
   */
  async registerPasskey(authUrl: string, projectKey: string, accessToken: string): Promise<number> {
    await this.page.evaluate(WEBAUTHN_UMD);
    return this.page.evaluate(
      async ([url, key, token]) => {
        const headers = {
          'Content-Type': 'application/json',
          'X-Service-Project-Key': key,
          Authorization: `Bearer ${token}`,
        };
        const begin = await fetch(`${url}/v1/auth/passkey/register/begin`, {
          method: 'POST',
          headers,
          body: '{}',
        });
        const optionsJSON: unknown = await begin.json();
        const api = (
          window as unknown as {
            SimpleWebAuthnBrowser: {
              startRegistration(o: { optionsJSON: unknown }): Promise<unknown>;
            };
          }
        ).SimpleWebAuthnBrowser;
        const credential = await api.startRegistration({ optionsJSON });
        const done = await fetch(`${url}/v1/auth/passkey/register/complete`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ credential }),
        });
        return done.status;
      },
      [authUrl, projectKey, accessToken] as const,
    );
  }

  /** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules). */
  async axe(page: Page = this.page): Promise<AxeViolation[]> {
    // Colours read mid-transition (a theme switch, a modal fading in) are not the page's: on a loaded
    // machine axe ran before Mantine's 150-200 ms transitions ended and saw contrasts of 1.4.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    // evaluate() runs outside the page's CSP, which forbids injected scripts (as it should).
    await page.evaluate(AXE);
    const options = {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    };
    const result = await page.evaluate(
      (opts) =>
        (
          window as unknown as {
            axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> };
          }
        ).axe.run(document, opts),
      options,
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
      }));
  }

  /**
   * The screen in the light and the dark theme (the pages follow prefers-color-scheme): axe
   * violations of both (expected none), and with OIDC_SCREENSHOTS=1 a screenshot of each.
   */
  async checkScreen(name: string, page: Page = this.page): Promise<AxeViolation[]> {
    const found: AxeViolation[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.waitForFunction(
        (t) => document.documentElement.getAttribute('data-mantine-color-scheme') === t,
        theme,
      );
      found.push(...(await this.axe(page)).map((v) => ({ ...v, id: `${name} ${theme}: ${v.id}` })));
      if (SCREENSHOTS) {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${theme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    return found;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
