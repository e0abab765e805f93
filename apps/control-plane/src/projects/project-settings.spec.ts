import { mergeSettings } from './project-settings';
import type { ProjectSettingsDto } from './dto/project-settings.dto';

const seal = (provider: string, field: string, value: string) =>
  `sealed(${provider}:${field}:${value})`;
const dto = (v: Record<string, unknown>) => v as unknown as ProjectSettingsDto;

describe('mergeSettings', () => {
  it('replaces given top-level keys, removes null ones and keeps the rest', () => {
    const current = {
      rp_id: 'a.example.com',
      rp_name: 'A',
      access_token_ttl_seconds: 900,
      custom: 1,
    };
    const { settings, changed } = mergeSettings(
      current,
      dto({ rp_name: 'B', access_token_ttl_seconds: null, rp_id: undefined }),
      seal,
    );
    expect(settings).toEqual({ rp_id: 'a.example.com', rp_name: 'B', custom: 1 });
    expect(changed.sort()).toEqual(['access_token_ttl_seconds', 'rp_name']);
    expect(current).toEqual({
      rp_id: 'a.example.com',
      rp_name: 'A',
      access_token_ttl_seconds: 900,
      custom: 1,
    });
  });

  it('seals provider secrets and never stores them in clear', () => {
    const { settings } = mergeSettings(
      {},
      dto({
        oauth_providers: {
          google: { enabled: true, client_id: 'id', client_secret: 's3cret', scopes: ['openid'] },
        },
      }),
      seal,
    );
    expect(settings.oauth_providers).toEqual({
      google: {
        enabled: true,
        client_id: 'id',
        scopes: ['openid'],
        client_secret_encrypted: 'sealed(google:client_secret:s3cret)',
      },
    });
    expect(JSON.stringify(settings)).not.toContain('"client_secret"');
  });

  it('replaces oauth_providers as a whole but keeps an omitted secret of a provider that stays', () => {
    const current = {
      oauth_providers: {
        google: { enabled: true, client_id: 'g', client_secret_encrypted: 'old-g' },
        apple: {
          enabled: true,
          client_id: 'a',
          client_secret_encrypted: 'old-a',
          private_key_encrypted: 'old-pk',
        },
        github: { enabled: true, client_id: 'h', client_secret_encrypted: 'old-h' },
      },
    };
    const { settings } = mergeSettings(
      current,
      dto({
        oauth_providers: {
          google: { enabled: false },
          apple: { client_id: 'a2', client_secret: null },
          microsoft: null,
        },
      }),
      seal,
    );
    expect(settings.oauth_providers).toEqual({
      google: { enabled: false, client_secret_encrypted: 'old-g' },
      apple: { client_id: 'a2', private_key_encrypted: 'old-pk' },
    });
  });
});
