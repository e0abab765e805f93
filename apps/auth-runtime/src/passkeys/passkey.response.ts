import type { Passkey } from '@gatehouse/entities';

/** A passkey as its owner sees it (CONTRACT §10); the public key and credential id stay inside. */
export interface PasskeyResponse {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  device_type: string;
  backed_up: boolean;
}

export function toPasskeyResponse(p: Passkey): PasskeyResponse {
  return {
    id: p.id,
    name: p.name,
    created_at: p.createdAt.toISOString(),
    last_used_at: p.lastUsedAt ? p.lastUsedAt.toISOString() : null,
    device_type: p.deviceType,
    backed_up: p.backedUp,
  };
}
