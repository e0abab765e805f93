import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  containsPattern,
  isId,
  Organization,
  type OrganizationSettings,
} from '@gatehouse/entities';
import type { Page } from './page';
import { randomSuffix, slugify } from './slug';

export interface OrganizationFilter {
  projectId?: string;
  q?: string;
}

/**
 * The only code that queries `organizations` (but the SQL fragments of this library that join it):
 * the control plane's, tenant-scoped, and the auth runtime's, scoped to the key's project.
 */
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

  /**
   * Runs `work` in a transaction that holds the tenant's organization row-locked first (the lock
   * order of this library), for the admin routes that change what belongs to an organization
   * (members, domains, SSO connections); throws `notFound()` when the tenant has no such
   * organization (an id that is not a uuid included).
   */
  withLockedInTenant<T>(
    tenantId: string,
    id: string,
    notFound: () => Error,
    work: (manager: EntityManager, org: Organization) => Promise<T>,
  ): Promise<T> {
    if (!isId(id)) return Promise.reject(notFound());
    return this.dataSource.transaction(async (manager) => {
      const org = await this.lockInTenant(manager, tenantId, id);
      if (!org) throw notFound();
      return work(manager, org);
    });
  }

  /** Reads and row-locks an organization of the project (the auth runtime's member routes; the same lock order). */
  lockInProject(
    manager: EntityManager,
    projectId: string,
    id: string,
  ): Promise<Organization | null> {
    return this.repo(manager).findOne({
      where: { projectId, id },
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
    o: Pick<Organization, 'tenantId' | 'projectId' | 'name' | 'slug' | 'metadata'> &
      Partial<Pick<Organization, 'settings'>>,
  ): Promise<Organization | null> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO organizations (tenant_id, project_id, name, slug, metadata, settings) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)
       ON CONFLICT (project_id, slug) DO NOTHING RETURNING id`,
      [
        o.tenantId,
        o.projectId,
        o.name,
        o.slug,
        JSON.stringify(o.metadata),
        JSON.stringify(o.settings ?? {}),
      ],
    );
    const id = rows[0]?.id;
    return id ? this.repo(manager).findOneOrFail({ where: { id } }) : null;
  }

  /**
   * Inserts with `slug` when given (null when it is taken), else with a slug made from the name,
   * which gets a random suffix when taken (a few tries; null when all are).
   */
  async insertWithSlug(
    manager: EntityManager,
    o: Pick<Organization, 'tenantId' | 'projectId' | 'name' | 'metadata'> &
      Partial<Pick<Organization, 'settings'>> & { slug?: string },
  ): Promise<Organization | null> {
    const base = o.slug ?? slugify(o.name);
    const candidates =
      o.slug !== undefined
        ? [base]
        : [base, ...Array.from({ length: 4 }, () => `${base}-${randomSuffix()}`)];
    for (const slug of candidates) {
      const created = await this.insert(manager, { ...o, slug });
      if (created) return created;
    }
    return null;
  }

  save(manager: EntityManager, o: Organization): Promise<Organization> {
    return this.repo(manager).save(o);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.repo(manager).delete({ id });
  }
}

/** An organization's settings after a PATCH of some of them: given members replace theirs (an omitted or undefined one stays). */
export function patchedSettings(
  current: OrganizationSettings,
  patch: OrganizationSettings | undefined,
): OrganizationSettings {
  const next: OrganizationSettings = { ...current };
  if (patch?.require_mfa !== undefined) next.require_mfa = patch.require_mfa;
  return next;
}
