import type { UserOrganizationRow } from '@gatehouse/organizations';
import type { SessionRow } from '@gatehouse/identity';
import type { UserRow } from './users.repository';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Admin user resource (CONTRACT §10); `mfa_factors` lists the enabled factor types. */
export function toUserResponse(u: UserRow) {
  return {
    id: u.id,
    project_id: u.project_id,
    email: u.email,
    email_verified: u.email_verified,
    username: u.username,
    status: u.status,
    is_admin: u.is_admin,
    metadata: u.metadata,
    mfa_factors: u.mfa_factors,
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    last_sign_in_at: iso(u.last_sign_in_at),
  };
}

/** `GET /v1/admin/users/{id}`: the user plus flat `sessions` (active ones) and `organizations`. */
export function toUserDetailResponse(u: UserRow, sessions: SessionRow[], organizations: UserOrganizationRow[]) {
  return {
    ...toUserResponse(u),
    sessions: sessions.map((s) => ({
      id: s.id,
      auth_method: s.auth_method,
      ip_address: s.ip_address,
      user_agent: s.user_agent,
      created_at: iso(s.created_at),
      last_active_at: iso(s.last_active_at),
      expires_at: iso(s.expires_at),
    })),
    organizations: organizations.map((o) => ({ id: o.id, name: o.name, slug: o.slug, role: o.role, joined_at: iso(o.joined_at) })),
  };
}
