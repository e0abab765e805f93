import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const PRIVATE_ADDRESS_MESSAGE = 'must not point to a loopback, private, link-local or metadata address';

/** Names that always mean this machine or a cloud metadata service, whatever DNS says. */
const BLOCKED_HOSTNAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
const RESOLVE_TIMEOUT_MS = 3000;

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * Why an IP address may not receive webhooks (its ipaddr.js range), or null for a public unicast
 * address. IPv4-mapped IPv6 is judged as the IPv4 it carries; IPv4-compatible `::a.b.c.d`, NAT64,
 * 6to4, Teredo, CGNAT, documentation and every other special range are refused as well.
 */
export function forbiddenAddress(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'invalid';
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return 'ipv4Compatible';
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

/** A host name (no brackets, no trailing dots, lower case) that is refused without asking DNS. */
function blockedHostname(host: string): boolean {
  const name = host.replace(/\.+$/, '').toLowerCase();
  return name === '' || BLOCKED_HOSTNAMES.has(name) || name.endsWith('.localhost');
}

/** The host of a parsed URL as DNS or the socket layer sees it (IPv6 without brackets). */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Syntax only: an absolute http(s) URL without credentials; returns the normalised URL. */
export function parseWebhookUrl(raw: string): WebhookUrlCheck {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, message: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` };
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return { ok: false, message: 'must not contain whitespace or control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use http or https' };
  if (!url.hostname) return { ok: false, message: 'must have a host' };
  if (url.username || url.password) return { ok: false, message: 'must not contain credentials' };
  // URL keeps an explicit port 0, which no server can listen on.
  if (url.port === '0') return { ok: false, message: 'must not use port 0' };
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, message: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` };
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
 * The check at creation and update (SSRF): the URL must parse, and unless private URLs are allowed
 * its host may be neither a refused name nor an address, literal or resolved, outside public
 * unicast space. A name that does not resolve now is accepted; the worker checks the address it
 * actually connects to at every attempt.
 */
export async function checkWebhookUrl(
  raw: string,
  opts: { allowPrivate: boolean; resolve?: (host: string) => Promise<string[]> },
): Promise<WebhookUrlCheck> {
  const parsed = parseWebhookUrl(raw);
  if (!parsed.ok || opts.allowPrivate) return parsed;
  const host = urlHost(new URL(parsed.url));
  if (isIP(host)) return forbiddenAddress(host) ? { ok: false, message: PRIVATE_ADDRESS_MESSAGE } : parsed;
  if (blockedHostname(host)) return { ok: false, message: PRIVATE_ADDRESS_MESSAGE };
  let addresses: string[];
  try {
    addresses = await (opts.resolve ?? resolveAll)(host);
  } catch {
    return parsed;
  }
  return addresses.some((a) => forbiddenAddress(a) !== null) ? { ok: false, message: PRIVATE_ADDRESS_MESSAGE } : parsed;
}

/** The error a refused send-time address raises (`code` = `EWEBHOOKPRIVATE`). */
export class PrivateAddressError extends Error {
  readonly code = 'EWEBHOOKPRIVATE';
  constructor(readonly host: string) {
    super(`webhook host ${host} is or resolves to a refused address`);
  }
}

/**
 * The send-time check for a literal host or a refused name, before any socket is opened. Names
 * are checked again on the addresses DNS returns, by `guardedLookup`, at connect time.
 */
export function assertSendableHost(url: URL): void {
  const host = urlHost(url);
  if (isIP(host) ? forbiddenAddress(host) !== null : blockedHostname(host)) throw new PrivateAddressError(host);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses names resolving to any non-public address, so the
 * check is made on the very address the socket connects to (no DNS-rebinding window).
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || addresses.some((a) => forbiddenAddress(a.address) !== null)) {
      return callback(new PrivateAddressError(hostname), []);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}
