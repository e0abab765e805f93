import { sha256Hex } from '@gatehouse/crypto';
import { isPublicClient, OAUTH_CLIENT_DEFAULTS, oauthClientRuleErrors } from './oauth-client-rules';
import {
  newOAuthClientId,
  newOAuthClientSecret,
  oauthClientSecretMatches,
} from './oauth-clients.repository';
import { projectOidcSettings } from '../oidc-settings';

const client = (
  over: Partial<{
    grantTypes: string[];
    tokenEndpointAuthMethod: string;
    redirectUris: string[];
    requirePkce: boolean;
  }> = {},
) => ({
  grantTypes: OAUTH_CLIENT_DEFAULTS.grantTypes,
  tokenEndpointAuthMethod: OAUTH_CLIENT_DEFAULTS.tokenEndpointAuthMethod,
  redirectUris: ['https://app.example.com/cb'],
  ...over,
});

describe('oauthClientRuleErrors', () => {
  it('accepts the defaults, a public code client and a machine client without redirect URIs', () => {
    expect(oauthClientRuleErrors(client())).toEqual({});
    expect(oauthClientRuleErrors(client({ tokenEndpointAuthMethod: 'none' }))).toEqual({});
    expect(
      oauthClientRuleErrors(client({ grantTypes: ['client_credentials'], redirectUris: [] })),
    ).toEqual({});
    expect(
      oauthClientRuleErrors(
        client({
          grantTypes: ['authorization_code', 'client_credentials'],
          tokenEndpointAuthMethod: 'client_secret_post',
        }),
      ),
    ).toEqual({});
  });

  it('refuses client_credentials for a public client, on grant_types', () => {
    expect(
      oauthClientRuleErrors(
        client({
          tokenEndpointAuthMethod: 'none',
          grantTypes: ['authorization_code', 'client_credentials'],
        }),
      ),
    ).toEqual({
      grant_types: [expect.stringContaining('public client')],
    });
  });

  it('keeps PKCE for a public client, on require_pkce; a confidential client may use the nonce instead', () => {
    expect(
      oauthClientRuleErrors(client({ tokenEndpointAuthMethod: 'none', requirePkce: false })),
    ).toEqual({
      require_pkce: [
        'must be true for a public client (token_endpoint_auth_method "none"): it has no secret, PKCE is what binds its code',
      ],
    });
    expect(oauthClientRuleErrors(client({ requirePkce: false }))).toEqual({});
  });

  it('refuses refresh_token without authorization_code, on grant_types', () => {
    expect(
      oauthClientRuleErrors(client({ grantTypes: ['refresh_token', 'client_credentials'] })),
    ).toEqual({
      grant_types: [expect.stringContaining('authorization_code')],
    });
  });

  it('needs a redirect URI for the authorization_code grant, on redirect_uris', () => {
    expect(oauthClientRuleErrors(client({ redirectUris: [] }))).toEqual({
      redirect_uris: [expect.stringContaining('at least one')],
    });
  });

  it('reports every broken rule at once', () => {
    const errors = oauthClientRuleErrors({
      grantTypes: ['refresh_token', 'client_credentials'],
      tokenEndpointAuthMethod: 'none',
      redirectUris: [],
    });
    expect(errors.grant_types).toHaveLength(2);
    expect(errors.redirect_uris).toBeUndefined();
  });

  it('tells public clients by their auth method', () => {
    expect(isPublicClient({ tokenEndpointAuthMethod: 'none' })).toBe(true);
    expect(isPublicClient({ tokenEndpointAuthMethod: 'client_secret_basic' })).toBe(false);
  });
});

describe('client ids and secrets', () => {
  it('makes oc_ ids of 128 bits and ocs_ secrets of 256 bits, base64url', () => {
    expect(newOAuthClientId()).toMatch(/^oc_[A-Za-z0-9_-]{22}$/);
    expect(newOAuthClientSecret()).toMatch(/^ocs_[A-Za-z0-9_-]{43}$/);
    expect(newOAuthClientSecret()).not.toBe(newOAuthClientSecret());
  });

  it('matches a presented secret against the stored SHA-256 only', () => {
    const secret = newOAuthClientSecret();
    const row = { secretHash: sha256Hex(secret) };
    expect(oauthClientSecretMatches(row, secret)).toBe(true);
    expect(oauthClientSecretMatches(row, `${secret}x`)).toBe(false);
    expect(oauthClientSecretMatches(row, '')).toBe(false);
    expect(oauthClientSecretMatches(row, row.secretHash)).toBe(false);
    expect(oauthClientSecretMatches({ secretHash: null }, secret)).toBe(false);
    expect(oauthClientSecretMatches({ secretHash: null }, '')).toBe(false);
  });
});

describe('projectOidcSettings', () => {
  const off = { require_pushed_authorization_requests: false, allow_sign_up: true };
  it('fills the defaults and counts only true as on (and only false as off for sign-up)', () => {
    expect(projectOidcSettings({})).toEqual({
      enabled: false,
      login_url: null,
      dynamic_registration: false,
      ...off,
    });
    expect(projectOidcSettings({ oidc: { enabled: true } })).toEqual({
      enabled: true,
      login_url: null,
      dynamic_registration: false,
      ...off,
    });
    expect(
      projectOidcSettings({
        oidc: {
          enabled: true,
          login_url: 'https://app.example.com/login',
          dynamic_registration: true,
          require_pushed_authorization_requests: true,
          allow_sign_up: false,
        },
      }),
    ).toEqual({
      enabled: true,
      login_url: 'https://app.example.com/login',
      dynamic_registration: true,
      require_pushed_authorization_requests: true,
      allow_sign_up: false,
    });
    expect(
      projectOidcSettings({
        oidc: {
          enabled: 'yes',
          login_url: 42,
          dynamic_registration: 1,
          require_pushed_authorization_requests: 'true',
          allow_sign_up: 0,
        } as never,
      }),
    ).toEqual({ enabled: false, login_url: null, dynamic_registration: false, ...off });
    expect(projectOidcSettings({ oidc: null } as never)).toEqual({
      enabled: false,
      login_url: null,
      dynamic_registration: false,
      ...off,
    });
  });
});
