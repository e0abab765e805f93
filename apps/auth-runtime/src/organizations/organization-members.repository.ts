import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MemberRole } from '@gatehouse/entities';

/** The only code of the auth runtime that writes `organization_members`. */
@Injectable()
export class OrganizationMembersRepository {
  /**
   * Makes the user a member with `role`; an existing member keeps the higher of both roles (an
   * invitation never demotes, so it cannot break the last-admin rule). Returns the resulting role.
   */
  async join(manager: EntityManager, m: { organizationId: string; userId: string; tenantId: string; role: MemberRole }): Promise<{ role: MemberRole; inserted: boolean; changed: boolean }> {
    const before: { role: MemberRole }[] = await manager.query(`SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2`, [
      m.organizationId,
      m.userId,
    ]);
    const rows: { role: MemberRole }[] = await manager.query(
      `INSERT INTO organization_members (organization_id, user_id, tenant_id, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, user_id) DO UPDATE
         SET role = CASE WHEN organization_members.role = 'admin' OR EXCLUDED.role = 'admin' THEN 'admin' ELSE 'member' END,
             updated_at = CASE WHEN organization_members.role = EXCLUDED.role OR organization_members.role = 'admin' THEN organization_members.updated_at ELSE now() END
       RETURNING role`,
      [m.organizationId, m.userId, m.tenantId, m.role],
    );
    const role = rows[0].role;
    const previous = before[0]?.role;
    return { role, inserted: previous === undefined, changed: previous !== undefined && previous !== role };
  }
}
