import ipaddr from 'ipaddr.js';

/**
 * The client a rate limit counts, from `req.ip` (which honours TRUST_PROXY): an IPv4 address as
 * it is; an IPv6 address by its /64 prefix, since one subscriber's network is handed a /64 (often
 * more) and can use any address in it, so per-address counting would give them 2^64 budgets; an
 * IPv4-mapped IPv6 address as the IPv4 address it carries.
 */
export function rateLimitClient(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (!ip.includes(':')) return ip;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(ip);
  } catch {
    return ip;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
