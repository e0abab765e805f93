import type { OAuthClient } from '@gatehouse/entities';
import type { AppConfig } from '@gatehouse/config';
import type { ResolvedProject } from '@gatehouse/identity';
import { oidcClientMetadata } from './oidc-client-metadata';
import { settingHint } from './oidc-error-pages';
import { interactionUrl, issuerOf } from './oidc-provider-configuration';

const config = { http: { publicAuthUrl: 'https://auth.example.com/' } } as AppConfig;
const project = (oidc: Record<string, unknown> = {}) =>
  ({ id: 'p1', settings: { oidc: { enabled: true, ...oidc } } }) as unknown as ResolvedProject;

describe('issuer and interaction URLs', () => {
  it('the issuer is PUBLIC_AUTH_URL (without trailing slash) + /v1/projects/{id}', () => {
    expect(issuerOf(config, 'p1')).toBe('https://auth.example.com/v1/projects/p1');
  });

  it('sends the browser to the hosted sign-in page, or to login_url keeping its query', () => {
    expect(interactionUrl(config, project(), 'u1')).toBe(
      'https://auth.example.com/v1/projects/p1/pages/sign-in?interaction=u1',
    );
    expect(
      interactionUrl(config, project({ login_url: 'https://app.example.com/login?x=1' }), 'u&2'),
    ).toBe('https://app.example.com/login?x=1&interaction=u%262');
  });
});

describe('client metadata for the provider', () => {
  const row = (over: Partial<OAuthClient> = {}) =>
    ({
      clientId: 'oc_1',
      name: 'App',
      secretHash: 'ab'.repeat(32),
      redirectUris: ['https://app.example.com/cb'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      scopes: ['openid', 'email'],
      firstParty: true,
      idTokenSignedResponseAlg: 'RS256',
      requirePkce: true,
      requirePushedAuthorizationRequests: false,
      ...over,
    }) as OAuthClient;

  it('carries the hash, never a secret; no require_auth_time (it would refuse requests without openid: auth_time is a claim of the openid scope)', () => {
    const metadata = oidcClientMetadata(row());
    expect(metadata).toMatchObject({
      client_id: 'oc_1',
      client_secret: 'ab'.repeat(32),
      response_types: ['code'],
      scope: 'openid email',
      first_party: true,
      id_token_signed_response_alg: 'RS256',
      require_pkce: true,
      require_pushed_authorization_requests: false,
    });
    expect(metadata).not.toHaveProperty('require_auth_time');
    expect(
      oidcClientMetadata(row({ requirePkce: false, requirePushedAuthorizationRequests: true })),
    ).toMatchObject({ require_pkce: false, require_pushed_authorization_requests: true });
  });

  it('a public client has no secret member; a client-credentials client no redirect URIs or response types', () => {
    expect(
      oidcClientMetadata(row({ secretHash: null, tokenEndpointAuthMethod: 'none' })),
    ).not.toHaveProperty('client_secret');
    expect(oidcClientMetadata(row({ grantTypes: ['client_credentials'] }))).toMatchObject({
      redirect_uris: [],
      response_types: [],
    });
  });
});

describe('settingHint', () => {
  it('names the client setting to change, once; other descriptions are left as they are', () => {
    const named = settingHint(
      "redirect_uri did not match any of the client's registered redirect_uris",
    );
    expect(named).toBe(
      "redirect_uri did not match any of the client's registered redirect_uris: add it to the client's redirect_uris setting (admin API or console)",
    );
    expect(settingHint(named)).toBe(named);
    expect(settingHint('post_logout_redirect_uri not registered')).toMatch(
      /post_logout_redirect_uris setting/,
    );
    expect(settingHint('openid scope must be requested when using the max_age parameter')).toMatch(
      /: ask for the openid scope, and list openid in the client's scopes setting$/,
    );
    expect(settingHint('grant request is invalid')).toBe('grant request is invalid');
  });
});
