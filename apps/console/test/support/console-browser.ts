import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';

const ROOT = join(__dirname, '..', '..', '..', '..');
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
/** `CONSOLE_SCREENSHOTS=1 npx jest -c apps/console/test/jest.e2e.config.cjs` refreshes docs/console/*.png. */
// eslint-disable-next-line no-restricted-properties -- test switch
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(ROOT, 'docs', 'console');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Debian's Chromium driven by playwright-core, on the console as a person uses it: every request
 * that leaves for another host than the stack is recorded (there must be none), every CSP
 * violation and page error is recorded (there must be none), and each screen can be scanned with
 * axe-core in both themes.
 */
export class ConsoleBrowser {
  readonly problems: string[] = [];
  readonly foreignRequests: string[] = [];
  private cdp: CDPSession | null = null;

  private constructor(
    private readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  static async launch(allowedHosts: string[]): Promise<ConsoleBrowser> {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const console = new ConsoleBrowser(browser, context, page);
    page.on('console', (msg) => {
      const text = msg.text();
      if (/Content Security Policy|Refused to/i.test(text)) console.problems.push(`CSP: ${text}`);
    });
    page.on('pageerror', (err) => console.problems.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!['data:', 'blob:'].includes(url.protocol) && !allowedHosts.includes(url.host))
        console.foreignRequests.push(req.url());
    });
    return console;
  }

  /** A CTAP2 platform authenticator with resident keys and user verification (Chrome's virtual authenticator). */
  async addAuthenticator(): Promise<void> {
    this.cdp = await this.context.newCDPSession(this.page);
    await this.cdp.send('WebAuthn.enable');
    await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
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

  /** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules). */
  async axe(): Promise<AxeViolation[]> {
    // Colours read mid-transition (a theme switch, a modal fading in) are not the page's: on a loaded
    // machine axe ran before Mantine's 150-200 ms transitions ended and saw contrasts of 1.4.
    await this.page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    // evaluate() runs outside the page's CSP, which forbids injected scripts (as it should).
    await this.page.evaluate(AXE);
    const options = {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    };
    const result = await this.page.evaluate(
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
   * The screen in the light and the dark theme: axe violations of both (expected none), and with
   * CONSOLE_SCREENSHOTS=1 a screenshot of each in docs/console/<name>-<theme>.png.
   */
  async checkScreen(name: string): Promise<AxeViolation[]> {
    const found: AxeViolation[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: theme });
      await this.page.waitForFunction(
        (t) => document.documentElement.getAttribute('data-mantine-color-scheme') === t,
        theme,
      );
      found.push(...(await this.axe()).map((v) => ({ ...v, id: `${theme}: ${v.id}` })));
      if (SCREENSHOTS) {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        // From the top: a full-page shot of a scrolled page draws the fixed header over the middle.
        await this.page.evaluate(() => window.scrollTo(0, 0));
        await this.page.screenshot({
          path: join(SCREENSHOT_DIR, `${name}-${theme}.png`),
          fullPage: true,
        });
      }
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    return found;
  }

  /** What sticks out sideways on a 390 px phone (nothing should: wide tables scroll inside their own container). */
  async overflowOnPhone(): Promise<string[]> {
    await this.page.setViewportSize({ width: 390, height: 844 });
    try {
      await this.page.waitForTimeout(300);
      return await this.page.locator('body').evaluate((body) => {
        const width = body.ownerDocument.documentElement.clientWidth;
        if (body.ownerDocument.documentElement.scrollWidth <= width) return [];
        return [...body.querySelectorAll('*')]
          .filter(
            (el) =>
              el.getBoundingClientRect().right > width + 1 &&
              !el.closest(
                '[style*="overflow"], .mantine-Table-scrollContainer, .mantine-ScrollArea-root',
              ),
          )
          .slice(0, 10)
          .map(
            (el) =>
              `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(el.getBoundingClientRect().right)}`,
          );
      });
    } finally {
      await this.page.setViewportSize({ width: 1280, height: 800 });
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/** Signs in through the console's sign-in page with a password (and lands on the overview). */
export async function signInThroughPage(
  page: Page,
  consoleUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${consoleUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}
