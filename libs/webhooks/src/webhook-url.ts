import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import type { PrivateUrlMode } from '@gatehouse/config';
import {
  WEBHOOK_PRIVATE_ADDRESS_MESSAGE,
  refusedAddress,
  refusedUrlHost,
  urlHost,
} from '@gatehouse/outbound';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
const RESOLVE_TIMEOUT_MS = 3000;

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; message: string };

/** Syntax only: an absolute http(s) URL without credentials; returns the normalised URL. */
export function parseWebhookUrl(raw: string): WebhookUrlCheck {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH)
    return { ok: false, message: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` };
  if (/[\s\u0000-\u001f\u007f]/.test(raw))
    return { ok: false, message: 'must not contain whitespace or control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: 'must use http or https' };
  if (!url.hostname) return { ok: false, message: 'must have a host' };
  if (url.username || url.password) return { ok: false, message: 'must not contain credentials' };
  // URL keeps an explicit port 0, which no server can listen on.
  if (url.port === '0') return { ok: false, message: 'must not use port 0' };
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH)
    return { ok: false, message: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` };
  return { ok: true, url: url.href };
}

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS);
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/**
 * The check at creation and update (SSRF): the URL must parse, and its host may be neither a
 * refused name nor an address, literal or resolved, that `mode` refuses (libs/outbound:
 * link-local and metadata endpoints always, other non-public addresses unless allowed). A name that
 * does not resolve now is accepted; the worker checks the address it actually connects to at every
 * attempt.
 */
export async function checkWebhookUrl(
  raw: string,
  opts: { mode: PrivateUrlMode; resolve?: (host: string) => Promise<string[]> },
): Promise<WebhookUrlCheck> {
  const parsed = parseWebhookUrl(raw);
  if (!parsed.ok) return parsed;
  const url = new URL(parsed.url);
  if (refusedUrlHost(url, opts.mode))
    return { ok: false, message: WEBHOOK_PRIVATE_ADDRESS_MESSAGE };
  const host = urlHost(url);
  if (isIP(host)) return parsed;
  let addresses: string[];
  try {
    addresses = await (opts.resolve ?? resolveAll)(host);
  } catch {
    return parsed;
  }
  return addresses.some((a) => refusedAddress(a, opts.mode) !== null)
    ? { ok: false, message: WEBHOOK_PRIVATE_ADDRESS_MESSAGE }
    : parsed;
}
