import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, Project } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

/** The only code of the control plane that queries `projects`; every query is tenant-scoped. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(Project);
  }

  findInTenant(tenantId: string, id: string, manager?: EntityManager): Promise<Project | null> {
    return this.repo(manager).findOne({ where: { tenantId, id } });
  }

  /** Reads and row-locks the project until the transaction ends (serialises concurrent changes). */
  lockInTenant(manager: EntityManager, tenantId: string, id: string): Promise<Project | null> {
    return this.repo(manager).findOne({ where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Newest first; `q` matches a case-insensitive substring of the name, literally. */
  async list(tenantId: string, q: string | undefined, page: Page): Promise<[Project[], number]> {
    const qb = this.repo().createQueryBuilder('p').where('p.tenant_id = :tenantId', { tenantId });
    if (q) qb.andWhere(`lower(p.name) LIKE lower(:q) ESCAPE '\\'`, { q: containsPattern(q) });
    return qb.orderBy('p.created_at', 'DESC').addOrderBy('p.id', 'DESC').skip(page.offset).take(page.limit).getManyAndCount();
  }

  save(project: Project, manager: EntityManager): Promise<Project> {
    return this.repo(manager).save(project);
  }
}
