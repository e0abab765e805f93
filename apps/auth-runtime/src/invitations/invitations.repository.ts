import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MemberRole } from '@gatehouse/entities';

export interface UsableInvitation {
  id: string;
  tenant_id: string;
  organization_id: string;
  organization_name: string;
  project_id: string;
  email: string;
  role: MemberRole;
}

/** The only code of the auth runtime that queries `invitations`. */
@Injectable()
export class InvitationsRepository {
  /**
   * A pending, unexpired invitation of an organization of this project, by token hash. Its
   * organization is locked (FOR UPDATE) first, as every change to an organization's members locks
   * it, so accepting cannot deadlock with an admin deleting the inviter or a member.
   */
  async findUsable(manager: EntityManager, tokenHash: string, projectId: string, now: Date): Promise<UsableInvitation | null> {
    const rows: UsableInvitation[] = await manager.query(
      `SELECT i.id, i.tenant_id, i.organization_id, o.name AS organization_name, o.project_id, i.email, i.role
         FROM invitations i JOIN organizations o ON o.id = i.organization_id
        WHERE i.token_hash = $1 AND o.project_id = $2 AND i.status = 'pending' AND i.expires_at > $3
        FOR UPDATE OF o`,
      [tokenHash, projectId, now],
    );
    return rows[0] ?? null;
  }

  /** One conditional UPDATE: of any number of concurrent accepts of one invitation, exactly one wins. */
  async markAccepted(manager: EntityManager, id: string, now: Date): Promise<boolean> {
    const [, affected] = await manager.query<[unknown[], number]>(
      `UPDATE invitations SET status = 'accepted', accepted_at = $2 WHERE id = $1 AND status = 'pending' AND expires_at > $2`,
      [id, now],
    );
    return affected > 0;
  }
}
