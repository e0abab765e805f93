import { emailDomain, normalizeDomain } from './domains';

describe('normalizeDomain', () => {
  it('lower-cases, drops a trailing dot and turns an IDN into punycode', () => {
    expect(normalizeDomain('Example.COM')).toBe('example.com');
    expect(normalizeDomain('acme.example.')).toBe('acme.example');
    expect(normalizeDomain('Bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('refuses what is not a hostname with a dot, or is longer than 253 characters', () => {
    for (const bad of [
      '',
      'localhost',
      'exa mple.com',
      'http://example.com',
      'user@example.com',
      '-acme.com',
      'acme-.com',
      'a..b',
      '10.0.0.1',
      `${'a'.repeat(64)}.com`,
      `${'a.'.repeat(126)}com`,
    ])
      expect(normalizeDomain(bad)).toBeNull();
    expect(
      normalizeDomain(
        `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`,
      ),
    ).toBe(`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`);
  });

  it("takes an email's domain as domains are stored", () => {
    expect(emailDomain('Ana@Sub.Example.com')).toBe('sub.example.com');
    expect(emailDomain('no-at-sign')).toBeNull();
  });
});
