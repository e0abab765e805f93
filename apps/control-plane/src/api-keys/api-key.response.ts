import type { ApiKey } from '@gatehouse/entities';

/** API key resource; the secret appears only in the create response (CONTRACT §6). */
export function toApiKeyResponse(k: ApiKey) {
  return {
    id: k.id,
    project_id: k.projectId,
    name: k.name,
    key_prefix: k.keyPrefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  };
}
