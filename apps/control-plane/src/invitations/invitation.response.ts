import type { Invitation } from '@gatehouse/entities';

/** Invitation resource; a pending invitation past `expires_at` shows as `expired`. The token is never shown. */
export function toInvitationResponse(i: Invitation, nowMs: number) {
  return {
    id: i.id,
    organization_id: i.organizationId,
    email: i.email,
    role: i.role,
    status: i.status === 'pending' && i.expiresAt.getTime() <= nowMs ? 'expired' : i.status,
    invited_by: i.invitedBy,
    expires_at: i.expiresAt.toISOString(),
    accepted_at: i.acceptedAt ? i.acceptedAt.toISOString() : null,
    revoked_at: i.revokedAt ? i.revokedAt.toISOString() : null,
    created_at: i.createdAt.toISOString(),
  };
}
