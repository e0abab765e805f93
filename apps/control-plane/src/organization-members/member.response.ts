import type { MemberRow } from '@gatehouse/organizations';

/** Organization member resource: the user's id and email with the role. */
export function toMemberResponse(m: MemberRow) {
  return {
    organization_id: m.organization_id,
    user_id: m.user_id,
    email: m.email,
    username: m.username,
    role: m.role,
    created_at: new Date(m.created_at).toISOString(),
    updated_at: new Date(m.updated_at).toISOString(),
  };
}
