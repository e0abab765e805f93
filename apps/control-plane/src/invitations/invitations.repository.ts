import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Invitation } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

/** The only code of the control plane that queries `invitations`. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(manager: EntityManager, i: Pick<Invitation, 'tenantId' | 'organizationId' | 'email' | 'role' | 'tokenHash' | 'invitedBy' | 'expiresAt'>): Promise<Invitation> {
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

  /** A pending, unexpired invitation of this email (case-insensitive) to the organization. */
  findOpenForEmail(manager: EntityManager, organizationId: string, email: string, now: Date): Promise<Invitation | null> {
    return manager
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .where(`i.organization_id = :organizationId AND lower(i.email) = lower(:email) AND i.status = 'pending' AND i.expires_at > :now`, { organizationId, email, now })
      .getOne();
  }

  find(manager: EntityManager, organizationId: string, id: string): Promise<Invitation | null> {
    return manager.getRepository(Invitation).findOne({ where: { organizationId, id } });
  }

  /** Revokes a pending invitation in one conditional UPDATE; false when it is not pending. */
  async revoke(manager: EntityManager, organizationId: string, id: string, now: Date): Promise<boolean> {
    const r = await manager
      .createQueryBuilder()
      .update(Invitation)
      .set({ status: 'revoked', revokedAt: now })
      .where(`id = :id AND organization_id = :organizationId AND status = 'pending'`, { id, organizationId })
      .execute();
    return (r.affected ?? 0) > 0;
  }
}
