import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';

const UMD_BUNDLE = join(
  __dirname,
  '../../../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js',
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

type Json = Record<string, unknown>;

/** What the page exposes on `window`: the UMD bundle of @simplewebauthn/browser. */
interface PageApi {
  SimpleWebAuthnBrowser: {
    startRegistration(opts: { optionsJSON: unknown }): Promise<Json>;
    startAuthentication(opts: { optionsJSON: unknown }): Promise<Json>;
  };
}

/**
 * Debian's headless Chromium, driven by playwright-core, with a CDP virtual authenticator (CTAP2,
 * internal, resident keys, user verification) on a page served from `http://localhost:<port>`
 * that loads @simplewebauthn/browser: real passkeys made and used by a real browser. The RP ID of
 * the project under test must be `localhost` and its allowed origins must include `origin`.
 */
export class BrowserPasskeys {
  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly server: Server,
    readonly origin: string,
    private readonly scripts: { body: string },
  ) {}

  private authenticatorId: string | null = null;

  static async start(): Promise<BrowserPasskeys> {
    const bundle = readFileSync(UMD_BUNDLE);
    const scripts = { body: '' };
    const server = createServer((req, res) => {
      if (req.url === '/webauthn.js')
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
      else if (req.url === '/') {
        res
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><html><head><meta charset="utf-8"><title>Gatehouse passkeys</title><script src="/webauthn.js"></script></head><body><script>${scripts.body}</script></body></html>`,
          );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const passkeys = new BrowserPasskeys(browser, page, cdp, server, origin, scripts);
    await passkeys.newAuthenticator();
    await page.goto(`${origin}/`);
    return passkeys;
  }

  /** Serves `script` in the page (after the bundle) and loads it again. */
  async loadScript(script: string): Promise<void> {
    this.scripts.body = script;
    await this.page.goto(`${this.origin}/`);
  }

  /** A new, empty authenticator in place of the current one (another person's device). */
  async newAuthenticator(): Promise<void> {
    if (this.authenticatorId)
      await this.cdp.send('WebAuthn.removeVirtualAuthenticator', {
        authenticatorId: this.authenticatorId,
      });
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    this.authenticatorId = authenticatorId;
  }

  /** `startRegistration` in the page: the attestation for creation options from `register/begin`. */
  register(optionsJSON: unknown): Promise<Json> {
    return this.page.evaluate(
      (options) =>
        (globalThis as unknown as PageApi).SimpleWebAuthnBrowser.startRegistration({
          optionsJSON: options,
        }),
      optionsJSON,
    );
  }

  /** `startAuthentication` in the page: an assertion for request options from `authenticate/begin`. */
  authenticate(optionsJSON: unknown): Promise<Json> {
    return this.page.evaluate(
      (options) =>
        (globalThis as unknown as PageApi).SimpleWebAuthnBrowser.startAuthentication({
          optionsJSON: options,
        }),
      optionsJSON,
    );
  }

  async stop(): Promise<void> {
    await this.browser.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
