import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { MemberRole } from '@gatehouse/entities';
import type { Page } from './page';
import { memberPermissionsSql, type OrganizationClaim } from './roles';

export interface MemberRow {
  organization_id: string;
  user_id: string;
  email: string;
  username: string | null;
  role: MemberRole;
  created_at: Date;
  updated_at: Date;
}

export interface UserOrganizationRow {
  id: string;
  name: string;
  slug: string;
  role: MemberRole;
  joined_at: Date;
}

const MEMBER_COLUMNS = `m.organization_id, m.user_id, u.email, u.username, m.role, m.created_at, m.updated_at`;

/**
 * SQL for a statement of another table that shows a user's organizations in the same round trip
 * (`/me`): a JSON array of `{id, name, role}` of the user `userRef`, by name.
 */
export const organizationsOfUserJsonSql = (userRef: string) =>
  `COALESCE((SELECT json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) ORDER BY o.name, o.id)
                            FROM organization_members m JOIN organizations o ON o.id = m.organization_id
                           WHERE m.user_id = ${userRef}), '[]'::json)`;

/**
 * The only code that queries `organization_members` (joined to users for their email): the
 * control plane's member and user routes, and invitations accepted in the auth runtime.
 *
 * The lock order, which both apps follow so that no two transactions wait for each other: every
 * change to an organization's members or invitations first locks the organization's row (FOR
 * UPDATE); a change that touches several organizations (deleting or disabling a user) locks them
 * in id order (`lockOrganizationsOf`) before it touches any member. Only then are members or
 * invitations read for a decision (the last-admin rule) or written.
 */
@Injectable()
export class OrganizationMembersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(organizationId: string, page: Page): Promise<[MemberRow[], number]> {
    const rows: MemberRow[] = await this.dataSource.query(
      `SELECT ${MEMBER_COLUMNS} FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 ORDER BY m.created_at, m.user_id LIMIT $2 OFFSET $3`,
      [organizationId, page.limit, page.offset],
    );
    const [{ total }] = await this.dataSource.query<[{ total: number }]>(
      `SELECT count(*)::int AS total FROM organization_members WHERE organization_id = $1`,
      [organizationId],
    );
    return [rows, total];
  }

  /**
   * Makes the user a member with `role` (an accepted invitation); an existing member keeps their
   * role unless the invitation makes them `admin` (an invitation never demotes, so it cannot break
   * the last-admin rule, and custom roles have no order to compare). Returns the resulting role.
   */
  async join(
    manager: EntityManager,
    m: { organizationId: string; userId: string; tenantId: string; role: MemberRole },
  ): Promise<{ role: MemberRole; inserted: boolean; changed: boolean }> {
    const before: { role: MemberRole }[] = await manager.query(
      `SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2`,
      [m.organizationId, m.userId],
    );
    const rows: { role: MemberRole }[] = await manager.query(
      `INSERT INTO organization_members (organization_id, user_id, tenant_id, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, user_id) DO UPDATE
         SET role = CASE WHEN EXCLUDED.role = 'admin' THEN 'admin' ELSE organization_members.role END,
             updated_at = CASE WHEN organization_members.role = EXCLUDED.role OR organization_members.role = 'admin' THEN organization_members.updated_at ELSE now() END
       RETURNING role`,
      [m.organizationId, m.userId, m.tenantId, m.role],
    );
    const role = rows[0].role;
    const previous = before[0]?.role;
    return {
      role,
      inserted: previous === undefined,
      changed: previous !== undefined && previous !== role,
    };
  }

  async find(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<MemberRow | null> {
    const rows: MemberRow[] = await manager.query(
      `SELECT ${MEMBER_COLUMNS} FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Adds a user of the organization's project (and tenant) as a member. Null when the user is not
   * in that project or is already a member.
   */
  async insertIfUserInProject(
    manager: EntityManager,
    m: {
      tenantId: string;
      organizationId: string;
      projectId: string;
      userId: string;
      role: MemberRole;
    },
  ): Promise<MemberRow | null> {
    const inserted: { user_id: string }[] = await manager.query(
      `INSERT INTO organization_members (organization_id, user_id, tenant_id, role)
       SELECT $1, u.id, u.tenant_id, $4 FROM users u WHERE u.id = $2 AND u.project_id = $3 AND u.tenant_id = $5
       ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING user_id`,
      [m.organizationId, m.userId, m.projectId, m.role, m.tenantId],
    );
    return inserted[0] ? this.find(manager, m.organizationId, m.userId) : null;
  }

  async updateRole(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    role: MemberRole,
  ): Promise<void> {
    await manager.query(
      `UPDATE organization_members SET role = $3, updated_at = now() WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId, role],
    );
  }

  async remove(manager: EntityManager, organizationId: string, userId: string): Promise<void> {
    await manager.query(
      `DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
  }

  /** Locks the tenant's organizations that `userId` belongs to, in id order (the lock order above); their ids. */
  async lockOrganizationsOf(
    manager: EntityManager,
    tenantId: string,
    userId: string,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT o.id FROM organizations o
        WHERE o.tenant_id = $1 AND o.id IN (SELECT organization_id FROM organization_members WHERE user_id = $2)
        ORDER BY o.id FOR UPDATE`,
      [tenantId, userId],
    );
    return rows.map((r) => r.id);
  }

  /** Every membership of `userId`, with its organization's name and how many other admins it has. */
  async membershipsWithOtherAdmins(
    manager: EntityManager,
    userId: string,
  ): Promise<{ organization_id: string; name: string; role: MemberRole; other_admins: number }[]> {
    return manager.query(
      `SELECT m.organization_id, o.name, m.role,
              (SELECT count(*)::int FROM organization_members a WHERE a.organization_id = m.organization_id AND a.role = 'admin' AND a.user_id <> m.user_id) AS other_admins
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = $1 ORDER BY m.organization_id`,
      [userId],
    );
  }

  /** How many members of the project's organizations hold `role` (a held role cannot be deleted). */
  async countHolding(manager: EntityManager, projectId: string, role: string): Promise<number> {
    const [{ n }] = await manager.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE o.project_id = $1 AND m.role = $2`,
      [projectId, role],
    );
    return n;
  }

  async countAdmins(manager: EntityManager, organizationId: string): Promise<number> {
    const [{ n }] = await manager.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM organization_members WHERE organization_id = $1 AND role = 'admin'`,
      [organizationId],
    );
    return n;
  }

  /** Whether a user of the project with this email (case-insensitive) is already a member. */
  async isMemberByEmail(
    manager: EntityManager,
    organizationId: string,
    projectId: string,
    email: string,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 AND u.project_id = $2 AND lower(u.email) = lower($3) LIMIT 1`,
      [organizationId, projectId, email],
    );
    return rows.length > 0;
  }

  /**
   * The user's membership of an organization of the project as an `org` claim with the
   * organization's name and its `require_mfa` policy, or null when they are not a member there. Takes the organization's row
   * FOR SHARE, so a removal or role change (which lock it FOR UPDATE) waits for the caller's
   * transaction and the claim it issues.
   */
  async lockClaim(
    manager: EntityManager,
    projectId: string,
    userId: string,
    organizationId: string,
  ): Promise<(OrganizationClaim & { name: string; require_mfa: boolean }) | null> {
    const rows: (OrganizationClaim & { name: string; require_mfa: boolean })[] =
      await manager.query(
        `SELECT o.id, o.name, o.slug, m.role, ${memberPermissionsSql('m', 'o')} AS permissions,
              COALESCE((o.settings ->> 'require_mfa')::boolean, false) AS require_mfa
         FROM organizations o JOIN organization_members m ON m.organization_id = o.id AND m.user_id = $2
        WHERE o.id = $3 AND o.project_id = $1
          FOR SHARE OF o`,
        [projectId, userId, organizationId],
      );
    return rows[0] ?? null;
  }

  /** A member's role and the permissions it grants in the organization, or null for a non-member. */
  async access(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<{ role: string; permissions: string[] } | null> {
    const rows: { role: string; permissions: string[] }[] = await manager.query(
      `SELECT m.role, ${memberPermissionsSql('m', 'o')} AS permissions
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    return rows[0] ?? null;
  }

  /** The user's organizations in the project with their role and permissions, by name (`GET /v1/auth/organizations`). */
  claimsOfUser(
    projectId: string,
    userId: string,
  ): Promise<(OrganizationClaim & { name: string })[]> {
    return this.dataSource.query(
      `SELECT o.id, o.name, o.slug, m.role, ${memberPermissionsSql('m', 'o')} AS permissions
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = $1 AND o.project_id = $2 ORDER BY o.name, o.id`,
      [userId, projectId],
    );
  }

  /** The organizations a user belongs to, with the role (for `GET /v1/admin/users/{id}`). */
  forUser(tenantId: string, userId: string): Promise<UserOrganizationRow[]> {
    return this.dataSource.query(
      `SELECT o.id, o.name, o.slug, m.role, m.created_at AS joined_at
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = $1 AND m.tenant_id = $2 ORDER BY o.name, o.id`,
      [userId, tenantId],
    );
  }
}
