import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, Organization } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

export interface OrganizationFilter {
  projectId?: string;
  q?: string;
}

/** The only code of the control plane that queries `organizations`; every query is tenant-scoped. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(Organization);
  }

  findInTenant(tenantId: string, id: string): Promise<Organization | null> {
    return this.repo().findOne({ where: { tenantId, id } });
  }

  /** Reads and row-locks the organization: member and invitation changes of one organization are serialised (the lock order of OrganizationMembersRepository, @gatehouse/organizations). */
  lockInTenant(manager: EntityManager, tenantId: string, id: string): Promise<Organization | null> {
    return this.repo(manager).findOne({
      where: { tenantId, id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  list(
    tenantId: string,
    filter: OrganizationFilter,
    page: Page,
  ): Promise<[Organization[], number]> {
    const qb = this.repo().createQueryBuilder('o').where('o.tenant_id = :tenantId', { tenantId });
    if (filter.projectId) qb.andWhere('o.project_id = :projectId', { projectId: filter.projectId });
    if (filter.q)
      qb.andWhere(
        `(lower(o.name) LIKE lower(:q) ESCAPE '\\' OR o.slug LIKE lower(:q) ESCAPE '\\')`,
        { q: containsPattern(filter.q) },
      );
    return qb
      .orderBy('o.created_at', 'DESC')
      .addOrderBy('o.id', 'ASC')
      .offset(page.offset)
      .limit(page.limit)
      .getManyAndCount();
  }

  /** Inserts unless the slug is taken in the project; null then. */
  async insert(
    manager: EntityManager,
    o: Pick<Organization, 'tenantId' | 'projectId' | 'name' | 'slug' | 'metadata'>,
  ): Promise<Organization | null> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO organizations (tenant_id, project_id, name, slug, metadata) VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (project_id, slug) DO NOTHING RETURNING id`,
      [o.tenantId, o.projectId, o.name, o.slug, JSON.stringify(o.metadata)],
    );
    const id = rows[0]?.id;
    return id ? this.repo(manager).findOneOrFail({ where: { id } }) : null;
  }

  save(manager: EntityManager, o: Organization): Promise<Organization> {
    return this.repo(manager).save(o);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.repo(manager).delete({ id });
  }
}
