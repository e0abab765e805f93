import type { SigningKey, SigningKeyStatus } from '@gatehouse/entities';

/**
 * Signing key resource (CONTRACT §6). A `retiring` key whose `retire_after` has passed no longer
 * verifies anything and is shown as `retired` (the row itself is updated at the next rotation).
 */
export function toSigningKeyResponse(k: SigningKey, nowMs: number) {
  const status: SigningKeyStatus = k.status === 'retiring' && (!k.retireAfter || k.retireAfter.getTime() <= nowMs) ? 'retired' : k.status;
  return {
    id: k.id,
    algorithm: k.algorithm,
    status,
    public_jwk: k.publicJwk,
    created_at: k.createdAt.toISOString(),
  };
}
