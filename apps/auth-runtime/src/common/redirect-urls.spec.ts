import { hostedPageUrl, matchRedirectUrl } from './redirect-urls';

const ID = '0b6b3c8e-8a57-4a57-9d59-1b2b3c4d5e6f';
const AUTH = 'https://auth.example.com';
const PAGE = `${AUTH}/v1/projects/${ID}/pages/sign-in`;
const project = (oidc: unknown) => ({
  id: ID,
  redirectUrls: ['https://app.example.com/callback'],
  settings: { oidc } as never,
});

describe('redirect URLs and the hosted sign-in page', () => {
  it('names the hosted pages under the issuer', () => {
    expect(hostedPageUrl(`${AUTH}/`, ID, 'sign-in')).toBe(PAGE);
    expect(hostedPageUrl(AUTH, ID, 'signed-out')).toBe(
      `${AUTH}/v1/projects/${ID}/pages/signed-out`,
    );
  });

  it('matches registered URLs exactly, after parsing', () => {
    expect(matchRedirectUrl(project(undefined), 'https://APP.example.com/callback', AUTH)).toBe(
      'https://app.example.com/callback',
    );
    expect(
      matchRedirectUrl(project(undefined), 'https://app.example.com/callback/', AUTH),
    ).toBeNull();
    expect(matchRedirectUrl(project(undefined), 'javascript:alert(1)', AUTH)).toBeNull();
  });

  it("accepts the project's own hosted sign-in page when its OIDC provider is on, and only then", () => {
    expect(matchRedirectUrl(project({ enabled: true }), PAGE, AUTH)).toBe(PAGE);
    expect(
      matchRedirectUrl(
        project({ enabled: true }),
        PAGE.replace('auth.example.com', 'AUTH.example.com:443'),
        AUTH,
      ),
    ).toBe(PAGE);
    expect(matchRedirectUrl(project({ enabled: false }), PAGE, AUTH)).toBeNull();
    expect(matchRedirectUrl(project({ enabled: 'true' }), PAGE, AUTH)).toBeNull();
    expect(matchRedirectUrl(project(undefined), PAGE, AUTH)).toBeNull();
    // Without the runtime's URL (a caller that does not know it) nothing is added.
    expect(matchRedirectUrl(project({ enabled: true }), PAGE, undefined)).toBeNull();
  });

  it('accepts no near match of the page: other project, other page, query, prefix, other host', () => {
    const p = project({ enabled: true });
    expect(
      matchRedirectUrl(p, PAGE.replace(ID, '1b6b3c8e-8a57-4a57-9d59-1b2b3c4d5e6f'), AUTH),
    ).toBeNull();
    expect(matchRedirectUrl(p, PAGE.replace('sign-in', 'consent'), AUTH)).toBeNull();
    expect(matchRedirectUrl(p, `${PAGE}?interaction=x`, AUTH)).toBeNull();
    expect(matchRedirectUrl(p, `${PAGE}/x`, AUTH)).toBeNull();
    expect(
      matchRedirectUrl(
        p,
        PAGE.replace('https://auth.example.com', 'https://auth.example.com.evil.test'),
        AUTH,
      ),
    ).toBeNull();
    expect(matchRedirectUrl(p, PAGE.replace('https:', 'http:'), AUTH)).toBeNull();
  });
});
