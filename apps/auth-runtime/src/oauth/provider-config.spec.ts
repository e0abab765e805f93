import { generateKeyPairSync } from 'node:crypto';
import { loadConfig } from '@gatehouse/config';
import { sealOAuthSecret } from '@gatehouse/identity';
import { readProviderSettings } from './provider-config';

const config = loadConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') });
const PROJECT = '6a97a141-43ef-4ca9-897e-0e1de71a71a1';
const project = (oauth: Record<string, unknown>) => ({
  id: PROJECT,
  settings: { oauth_providers: oauth as Record<string, Record<string, unknown>> },
});
const secret = (provider: string, value = 's3cret') =>
  sealOAuthSecret(config, PROJECT, provider, 'client_secret', value);

describe('readProviderSettings', () => {
  it('fills in the real provider endpoints when nothing is overridden', () => {
    const r = readProviderSettings(
      config,
      project({
        google: { enabled: true, client_id: 'id', client_secret_encrypted: secret('google') },
      }),
      'google',
    );
    expect(r).toEqual({
      ok: true,
      settings: expect.objectContaining({
        clientId: 'id',
        clientSecret: 's3cret',
        issuer: 'https://accounts.google.com',
        authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenUrl: 'https://oauth2.googleapis.com/token',
        jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
        scopes: ['openid', 'email', 'profile'],
        issuerOverridden: false,
      }),
    });
    const gh = readProviderSettings(
      config,
      project({
        github: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: secret('github'),
          userinfo_url: 'https://ghe.example/api/v3/user',
        },
      }),
      'github',
    );
    expect(gh.ok && gh.settings).toMatchObject({
      tokenUrl: 'https://github.com/login/oauth/access_token',
      emailsUrl: 'https://ghe.example/api/v3/user/emails',
      scopes: ['read:user', 'user:email'],
    });
  });

  it('adds the scopes the flow cannot do without', () => {
    const ms = readProviderSettings(
      config,
      project({
        microsoft: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: secret('microsoft'),
          scopes: ['email'],
        },
      }),
      'microsoft',
    );
    expect(ms.ok && ms.settings.scopes).toEqual(['openid', 'email']);
    const gh = readProviderSettings(
      config,
      project({
        github: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: secret('github'),
          scopes: ['read:user'],
        },
      }),
      'github',
    );
    expect(gh.ok && gh.settings.scopes).toEqual(['user:email', 'read:user']);
  });

  it('leaves endpoints of an overridden issuer to discovery instead of mixing in the real provider', () => {
    const r = readProviderSettings(
      config,
      project({
        google: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: secret('google'),
          issuer: 'https://sso.example',
          token_url: 'https://sso.example/token',
        },
      }),
      'google',
    );
    expect(r.ok && r.settings).toMatchObject({
      issuer: 'https://sso.example',
      issuerOverridden: true,
      authorizationUrl: null,
      tokenUrl: 'https://sso.example/token',
      jwksUrl: null,
      issuerAliases: [],
    });
  });

  it.each([
    ['absent', {}],
    ['not enabled', { google: { client_id: 'id', client_secret_encrypted: 'x' } }],
    ['enabled as a string', { google: { enabled: 'true', client_id: 'id' } }],
    ['without client id', { google: { enabled: true, client_secret_encrypted: 'x' } }],
    ['without client secret', { google: { enabled: true, client_id: 'id' } }],
    [
      'with a secret sealed for another project',
      {
        google: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: sealOAuthSecret(config, 'other', 'google', 'client_secret', 'x'),
        },
      },
    ],
    [
      'with a bad URL',
      {
        google: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: 'PLACEHOLDER',
          token_url: 'javascript:alert(1)',
        },
      },
    ],
    [
      'with bad scopes',
      {
        google: {
          enabled: true,
          client_id: 'id',
          client_secret_encrypted: 'PLACEHOLDER',
          scopes: 'openid email',
        },
      },
    ],
    ['as an array', { google: [] }],
  ])('refuses a provider %s', (_name, oauth) => {
    const fixed = JSON.parse(
      JSON.stringify(oauth).replace('PLACEHOLDER', secret('google')),
    ) as Record<string, unknown>;
    expect(readProviderSettings(config, project(fixed), 'google')).toEqual({
      ok: false,
      problem: expect.any(String),
    });
  });

  it('needs Apple’s team id, key id and a P-256 private key', () => {
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    const apple = (pem: string, extra: Record<string, unknown> = {}) =>
      readProviderSettings(
        config,
        project({
          apple: {
            enabled: true,
            client_id: 'com.example',
            team_id: 'T',
            key_id: 'K',
            private_key_encrypted: sealOAuthSecret(config, PROJECT, 'apple', 'private_key', pem),
            ...extra,
          },
        }),
        'apple',
      );
    expect(apple(p256)).toMatchObject({
      ok: true,
      settings: {
        clientSecret: null,
        apple: { teamId: 'T', keyId: 'K' },
        issuer: 'https://appleid.apple.com',
        scopes: ['openid', 'name', 'email'],
      },
    });
    expect(apple(rsa).ok).toBe(false);
    expect(apple('not a key').ok).toBe(false);
    expect(apple(p256, { team_id: '' }).ok).toBe(false);
  });
});
