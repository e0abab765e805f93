import type { Project } from '@gatehouse/entities';
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS, DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS, projectSmsSettings } from '@gatehouse/identity';

/** What a project that never set a key shows; every key of CONTRACT §6's settings is always present. */
const SETTINGS_DEFAULTS = {
  default_redirect_url: null,
  rp_id: null,
  rp_name: null,
  require_email_verification: false,
  access_token_ttl_seconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  reauthentication_max_age_seconds: DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS,
};

/** Project resource (CONTRACT §6); OAuth client secrets are write-only and show as `client_secret_set`. */
export function toProjectResponse(p: Project) {
  const providers = Object.fromEntries(
    Object.entries(p.settings.oauth_providers ?? {}).map(([name, cfg]) => {
      const { client_secret_encrypted, private_key_encrypted, ...rest } = cfg;
      return [name, { ...rest, client_secret_set: Boolean(client_secret_encrypted), ...(private_key_encrypted ? { private_key_set: true } : {}) }];
    }),
  );
  return {
    id: p.id,
    name: p.name,
    publishable_key: p.publishableKey,
    allowed_origins: p.allowedOrigins,
    redirect_urls: p.redirectUrls,
    settings: { ...SETTINGS_DEFAULTS, ...p.settings, sms: projectSmsSettings(p.settings), oauth_providers: providers },
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export type ProjectResponse = ReturnType<typeof toProjectResponse>;
