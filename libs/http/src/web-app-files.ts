import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Response } from 'express';

/** Hashed file names only (Vite's `name-hash.ext`): nothing else under assets/ is ever read. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(?:js|css|svg|png|woff2?)$/;
const NONCE_PLACEHOLDER = /GATEHOUSE_CSP_NONCE/g;

/**
 * A built single-page app served by one of our apps: the console (`npm run build:console` writes
 * dist/console) or the hosted sign-in pages (`npm run build:pages` writes dist/auth-pages), at the
 * repository root. The apps run from the sources in tests and from dist/ otherwise; both find the
 * same folder.
 */
export class WebAppFiles {
  private index: string | null | undefined;

  constructor(readonly dir: string) {}

  /** The folder of the built app `name` (from libs/http/src, or dist/libs/http/src). */
  static locate(name: 'console' | 'auth-pages'): string {
    const candidates = [
      resolve(__dirname, '../../../dist', name),
      resolve(__dirname, '../../..', name),
    ];
    return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0];
  }

  /** index.html with a fresh nonce in place of the build's placeholder, or null when the app is not built. */
  page(): { html: string; nonce: string } | null {
    if (this.index === undefined || this.index === null) {
      const file = join(this.dir, 'index.html');
      this.index = existsSync(file) ? readFileSync(file, 'utf8') : null;
    }
    if (this.index === null) return null;
    const nonce = randomBytes(16).toString('base64');
    return { html: this.index.replace(NONCE_PLACEHOLDER, nonce), nonce };
  }

  /** The path of a hashed asset, or null for any other name. */
  asset(name: string): string | null {
    if (!ASSET_NAME.test(name)) return null;
    const file = join(this.dir, 'assets', name);
    return existsSync(file) ? file : null;
  }
}

/**
 * The Content-Security-Policy of a served app's page: scripts and styles from its own origin only,
 * the `<style>` elements Mantine writes carrying this response's nonce; no inline script, no style
 * attribute from markup; API calls to its own origin and the auth runtime only; never framed.
 */
export function webAppCsp(nonce: string, authOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${authOrigin}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Sends a hashed asset (`WebAppFiles.asset`): cached for a year (its name changes with its content), never sniffed. */
export function sendWebAppAsset(res: Response, file: string): void {
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.sendFile(file, { dotfiles: 'deny', cacheControl: false, lastModified: false });
}

/** Sends the app's page (`WebAppFiles.page`) under `csp`: never sniffed, framed, referred or cached. */
export function sendWebAppPage(res: Response, html: string, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(html);
}
