import {
  lookup as dnsLookup,
  type LookupAddress,
  type LookupAllOptions,
  type LookupOptions,
} from 'node:dns';
import type { RequestOptions } from 'node:http';
import type { PrivateUrlMode } from '@gatehouse/config';
import { refusedAddress, refusedUrlHost, urlHost } from './address-policy';

/** The error a refused outbound address raises, before any byte is sent (`code` = `EREFUSEDADDRESS`). */
export class PrivateAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
  constructor(readonly host: string) {
    super(`host ${host} is or resolves to a refused address`);
    this.name = 'PrivateAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
export type GuardedLookup = (
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
) => void;
/** Resolves every address of a name (node's `dns.lookup` with `all: true`; replaceable in unit tests). */
export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const lookups = new Map<PrivateUrlMode, GuardedLookup>();

/**
 * A `lookup` for `http.request` that refuses a name when any address it resolves to is refused
 * under `mode`: the check is made on the very addresses the socket connects to, so a name that
 * re-points to a private address after it was checked (DNS rebinding) is refused too.
 */
export function guardedLookup(mode: PrivateUrlMode, resolve: Resolver = dnsLookup): GuardedLookup {
  const cached = resolve === dnsLookup ? lookups.get(mode) : undefined;
  if (cached) return cached;
  const lookup: GuardedLookup = (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (
        addresses.length === 0 ||
        addresses.some((a) => refusedAddress(a.address, mode) !== null)
      ) {
        return callback(new PrivateAddressError(hostname), []);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
  if (resolve === dnsLookup) lookups.set(mode, lookup);
  return lookup;
}

/**
 * The check before a socket is opened, for a literal address or a refused name (names are checked
 * again on the addresses DNS returns, by `guardedLookup`, at connect time). Throws PrivateAddressError.
 */
export function assertSendableHost(url: URL, mode: PrivateUrlMode): void {
  if (refusedUrlHost(url, mode)) throw new PrivateAddressError(urlHost(url));
}

/** What `http.request` needs to reach a URL through the guard. */
export interface OutboundTarget {
  secure: boolean;
  /** The Host header as the URL spells it (port only when not the default, IPv6 in brackets). */
  host: string;
  options: Pick<RequestOptions, 'protocol' | 'hostname' | 'port' | 'path' | 'lookup'>;
}

/**
 * The one way Gatehouse connects to a URL an admin or a provider document supplied (webhooks,
 * identity providers): http(s) only, the host checked before connecting (`assertSendableHost`)
 * and every resolved address checked while connecting (`guardedLookup`), in every mode. Callers
 * never follow redirects. Throws PrivateAddressError, or an Error for a URL that is not http(s).
 */
export function outboundTarget(raw: string | URL, mode: PrivateUrlMode): OutboundTarget {
  const url = typeof raw === 'string' ? new URL(raw) : raw;
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('unsupported URL scheme');
  assertSendableHost(url, mode);
  const secure = url.protocol === 'https:';
  return {
    secure,
    host: url.host,
    options: {
      protocol: url.protocol,
      hostname: urlHost(url),
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      lookup: guardedLookup(mode),
    },
  };
}
