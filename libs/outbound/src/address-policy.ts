import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { PrivateUrlMode } from '@gatehouse/config';

/** The refusal of a URL at a non-public address, naming the variable that would allow it. */
export function privateAddressMessage(
  variable: 'WEBHOOK_ALLOW_PRIVATE_URLS' | 'OAUTH_ALLOW_PRIVATE_URLS',
): string {
  return `must not point to a loopback, private, link-local or metadata address (${variable}=loopback allows loopback addresses, ${variable}=true private ones too; link-local and metadata addresses never)`;
}
/** Webhooks and the lazy-migration endpoint. */
export const WEBHOOK_PRIVATE_ADDRESS_MESSAGE = privateAddressMessage('WEBHOOK_ALLOW_PRIVATE_URLS');
/** Identity-provider URLs. */
export const OAUTH_PRIVATE_ADDRESS_MESSAGE = privateAddressMessage('OAUTH_ALLOW_PRIVATE_URLS');

/**
 * Cloud metadata services (instance credentials) outside link-local space, or inside it but named
 * for the record: AWS IMDS (and its IPv6 endpoint), ECS task credentials, EKS Pod Identity, GCP's
 * IPv6 endpoint, Alibaba, Tencent, Oracle's legacy endpoint, Azure's WireServer. Refused in every
 * mode, like the whole link-local range they mostly live in.
 */
const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '169.254.0.23',
  'fd00:ec2::254',
  'fd00:ec2::23',
  'fd20:ce::254',
  '100.100.100.200',
  '192.0.0.192',
  '168.63.129.16',
].map((a) => ipaddr.parse(a).toNormalizedString());

/** Names of cloud metadata services, refused in every mode whatever DNS says. */
const METADATA_HOSTNAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/** The IPv4 address an IPv6 address carries by construction (IPv4-compatible, NAT64, 6to4), if any. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (p.slice(0, 6).every((x) => x === 0)) return v4(p[6], p[7]); // ::a.b.c.d
  if (ip.range() === 'rfc6052') return v4(p[6], p[7]); // 64:ff9b::a.b.c.d
  if (ip.range() === '6to4') return v4(p[1], p[2]); // 2002:aabb:ccdd::
  return null;
}

/** Link-local or a known metadata endpoint, looking through IPv4 embedded in IPv6. */
function metadataOrLinkLocal(ip: Ip): string | null {
  const normalized = ip.toNormalizedString();
  if (METADATA_ADDRESSES.includes(normalized)) return 'metadata';
  if (ip.range() === 'linkLocal') return 'linkLocal';
  if (ip.kind() === 'ipv6') {
    const inner = embeddedIpv4(ip as ipaddr.IPv6);
    if (inner) return metadataOrLinkLocal(inner);
  }
  return null;
}

/**
 * Why an outbound call to this IP address is refused under `mode`, or null when it may go:
 * - every mode refuses link-local space (169.254.0.0/16, fe80::/10) and the cloud metadata
 *   endpoints (`METADATA_ADDRESSES`);
 * - `none` allows public unicast only (ipaddr.js range `unicast`): loopback, private, CGNAT,
 *   unspecified, documentation, NAT64, 6to4, Teredo, IPv4-compatible `::a.b.c.d`… are refused;
 * - `loopback` allows 127.0.0.0/8 and ::1 besides;
 * - `any` allows every other address.
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged as the IPv4 it carries. An unparsable address is
 * refused (`invalid`).
 */
export function refusedAddress(address: string, mode: PrivateUrlMode): string | null {
  let ip: Ip;
  try {
    ip = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'invalid';
  }
  const special = metadataOrLinkLocal(ip);
  if (special) return special;
  if (mode === 'any') return null;
  if (
    ip.kind() === 'ipv6' &&
    (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0) &&
    ip.range() !== 'loopback'
  )
    return 'ipv4Compatible';
  const range = ip.range();
  if (range === 'unicast' || (range === 'loopback' && mode === 'loopback')) return null;
  return range;
}

/**
 * A host name (not an address) refused without asking DNS: the empty name, cloud metadata names
 * in every mode, and `localhost`/`*.localhost` unless loopback is allowed. Trailing dots and case
 * do not matter.
 */
export function refusedHostname(host: string, mode: PrivateUrlMode): boolean {
  const name = host.replace(/\.+$/, '').toLowerCase();
  if (name === '' || METADATA_HOSTNAMES.has(name)) return true;
  return mode === 'none' && (name === 'localhost' || name.endsWith('.localhost'));
}

/** The host of a parsed URL as DNS or the socket layer sees it (IPv6 without brackets). */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * The check that needs no DNS: a literal address judged by `refusedAddress`, a name by
 * `refusedHostname`. True when the URL's host is refused under `mode`. Names that pass are judged
 * again on the addresses they resolve to, when a connection is made (`guardedLookup`).
 */
export function refusedUrlHost(url: URL, mode: PrivateUrlMode): boolean {
  const host = urlHost(url);
  return isIP(host) ? refusedAddress(host, mode) !== null : refusedHostname(host, mode);
}
