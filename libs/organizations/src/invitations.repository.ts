import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Invitation } from '@gatehouse/entities';
import type { MemberRole } from '@gatehouse/entities';
import type { Page } from './page';

/** A pending invitation found by its token, with what accepting it needs. */
export interface UsableInvitation {
  id: string;
  tenant_id: string;
  organization_id: string;
  organization_name: string;
  project_id: string;
  email: string;
  role: MemberRole;
}

/** The only code that queries `invitations`: created and revoked by admins, accepted in the auth runtime. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(
    manager: EntityManager,
    i: Pick<
      Invitation,
      'tenantId' | 'organizationId' | 'email' | 'role' | 'tokenHash' | 'invitedBy' | 'expiresAt'
    >,
  ): Promise<Invitation> {
    const repo = manager.getRepository(Invitation);
    return repo.save(repo.create({ ...i, status: 'pending' }));
  }

  list(organizationId: string, page: Page): Promise<[Invitation[], number]> {
    return this.dataSource.getRepository(Invitation).findAndCount({
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /** How many pending, unexpired invitations to the project's organizations give `role` (it cannot be deleted meanwhile). */
  async countPendingWithRole(
    manager: EntityManager,
    projectId: string,
    role: string,
    now: Date,
  ): Promise<number> {
    const [{ n }] = await manager.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM invitations i JOIN organizations o ON o.id = i.organization_id
        WHERE o.project_id = $1 AND i.role = $2 AND i.status = 'pending' AND i.expires_at > $3`,
      [projectId, role, now],
    );
    return n;
  }

  /** A pending, unexpired invitation of this email (case-insensitive) to the organization. */
  findOpenForEmail(
    manager: EntityManager,
    organizationId: string,
    email: string,
    now: Date,
  ): Promise<Invitation | null> {
    return manager
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .where(
        `i.organization_id = :organizationId AND lower(i.email) = lower(:email) AND i.status = 'pending' AND i.expires_at > :now`,
        { organizationId, email, now },
      )
      .getOne();
  }

  find(manager: EntityManager, organizationId: string, id: string): Promise<Invitation | null> {
    return manager.getRepository(Invitation).findOne({ where: { organizationId, id } });
  }

  /**
   * A pending, unexpired invitation of an organization of this project, by token hash. Its
   * organization is locked first (the lock order of OrganizationMembersRepository), so accepting cannot deadlock with an admin deleting
   * the inviter or a member.
   */
  async findUsable(
    manager: EntityManager,
    tokenHash: string,
    projectId: string,
    now: Date,
  ): Promise<UsableInvitation | null> {
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

  /** Revokes a pending invitation in one conditional UPDATE; false when it is not pending. */
  async revoke(
    manager: EntityManager,
    organizationId: string,
    id: string,
    now: Date,
  ): Promise<boolean> {
    const r = await manager
      .createQueryBuilder()
      .update(Invitation)
      .set({ status: 'revoked', revokedAt: now })
      .where(`id = :id AND organization_id = :organizationId AND status = 'pending'`, {
        id,
        organizationId,
      })
      .execute();
    return (r.affected ?? 0) > 0;
  }
}
