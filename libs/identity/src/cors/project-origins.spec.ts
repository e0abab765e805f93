import { originAllowed, originAllowedSql } from '../request-auth';
import { authOriginOf, projectOrigins } from './project-origins';

const AUTH = 'https://auth.example.com';

describe('projectOrigins', () => {
  it("adds the auth runtime's own origin for a project whose OIDC provider is on, and only then", () => {
    expect(
      projectOrigins(
        { allowedOrigins: ['https://app.example.com'], settings: { oidc: { enabled: true } } },
        AUTH,
      ),
    ).toEqual(['https://app.example.com', AUTH]);
    expect(
      projectOrigins(
        { allowedOrigins: ['https://app.example.com'], settings: { oidc: { enabled: false } } },
        AUTH,
      ),
    ).toEqual(['https://app.example.com']);
    expect(
      projectOrigins({ allowedOrigins: ['https://app.example.com'], settings: {} }, AUTH),
    ).toEqual(['https://app.example.com']);
    expect(
      projectOrigins(
        { allowedOrigins: [], settings: { oidc: { enabled: 'true' } as never } },
        AUTH,
      ),
    ).toEqual([]);
    expect(
      projectOrigins({ allowedOrigins: [AUTH], settings: { oidc: { enabled: true } } }, AUTH),
    ).toEqual([AUTH]);
  });

  it('keeps a foreign origin refused by the CSRF rule', () => {
    const origins = projectOrigins(
      { allowedOrigins: ['https://app.example.com'], settings: { oidc: { enabled: true } } },
      AUTH,
    );
    expect(originAllowed(AUTH, origins)).toBe(true);
    expect(originAllowed('https://evil.example.com', origins)).toBe(false);
    expect(originAllowed('https://auth.example.com:8443', origins)).toBe(false);
  });

  it('is the origin of PUBLIC_AUTH_URL, path and trailing slash dropped', () => {
    expect(authOriginOf('https://auth.example.com/base/')).toBe(AUTH);
    expect(authOriginOf('http://localhost:4000')).toBe('http://localhost:4000');
  });

  it('has an SQL twin that checks the same two conditions', () => {
    expect(originAllowedSql('$1', 'p.allowed_origins')).toBe(
      '($1::text IS NULL OR p.allowed_origins ? $1::text)',
    );
    expect(
      originAllowedSql('$1', 'p.allowed_origins', { settings: 'p.settings', authOrigin: '$2' }),
    ).toBe(
      "($1::text IS NULL OR p.allowed_origins ? $1::text OR ($1::text = $2::text AND COALESCE(p.settings -> 'oidc' -> 'enabled' = 'true'::jsonb, false)))",
    );
  });
});
