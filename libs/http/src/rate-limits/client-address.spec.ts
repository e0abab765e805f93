import { rateLimitClient } from './client-address';

describe('rateLimitClient', () => {
  it('counts IPv4 clients by address', () => {
    expect(rateLimitClient('198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts IPv6 clients by their /64, however the address is written', () => {
    const prefix = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a:b:c:d',
    ])
      expect(rateLimitClient(ip)).toBe(prefix);
    expect(rateLimitClient('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitClient('::1')).toBe('0:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(rateLimitClient('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('keeps what it cannot parse, and names a missing address', () => {
    expect(rateLimitClient('1:2:3')).toBe('1:2:3');
    expect(rateLimitClient(undefined)).toBe('unknown');
  });
});
