import type { Project } from '@gatehouse/entities';

/** Project resource (CONTRACT §6); OAuth client secrets are write-only and show as `client_secret_set`. */
export function toProjectResponse(p: Project) {
  const settings = { ...p.settings };
  if (settings.oauth_providers) {
    settings.oauth_providers = Object.fromEntries(
      Object.entries(settings.oauth_providers).map(([name, cfg]) => {
        const { client_secret_encrypted, private_key_encrypted, ...rest } = cfg;
        return [name, { ...rest, client_secret_set: Boolean(client_secret_encrypted), ...(private_key_encrypted ? { private_key_set: true } : {}) }];
      }),
    );
  }
  return {
    id: p.id,
    name: p.name,
    publishable_key: p.publishableKey,
    allowed_origins: p.allowedOrigins,
    redirect_urls: p.redirectUrls,
    settings,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export type ProjectResponse = ReturnType<typeof toProjectResponse>;
