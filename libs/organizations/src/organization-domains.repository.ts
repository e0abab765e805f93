import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OrganizationDomain, queryRows, type DomainEnrollment } from '@gatehouse/entities';
import type { Page } from './page';

/** A membership a verified domain gave (auto-join): what its `organization.member.added` event says. */
export interface DomainJoinRow {
  organization_id: string;
  organization_name: string;
  role: string;
}

/** A verified `suggest` domain of the project at the user's email domain, of an organization they are not in. */
export interface DomainSuggestionRow {
  id: string;
  domain: string;
  role: string;
  organization_id: string;
  organization_name: string;
  organization_slug: string;
  tenant_id: string;
}

/**
 * SQL of a data-modifying statement (for a `WITH … AS (…)` of another table's statement, or on its
 * own): makes user `$user` a member, with the domain's `default_role`, of the organization whose
 * verified `auto_join` domain of project `$project` is `$domain` (at most one: the partial unique
 * index, which this lookup uses), unless they already are one. Returns `organization_id, role`.
 * The parameters are SQL references (`$1`…). The organization's row is taken FOR KEY SHARE, and
 * only when a membership is to be added (the foreign key's own check would take it too): an
 * organization deleted meanwhile is skipped rather than failing the sign-in on the foreign key.
 */
export const autoJoinSql = (user: string, project: string, domain: string) =>
  `INSERT INTO organization_members (organization_id, user_id, tenant_id, role)
   SELECT d.organization_id, ${user}, d.tenant_id, d.default_role
     FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
    WHERE d.project_id = ${project} AND d.domain = ${domain} AND d.status = 'verified' AND d.enrollment = 'auto_join'
      AND NOT EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = d.organization_id AND m.user_id = ${user})
      FOR KEY SHARE OF o
   ON CONFLICT (organization_id, user_id) DO NOTHING
   RETURNING organization_id, role`;

/**
 * The only code that queries `organization_domains` (but `autoJoinSql`, which the sign-in's
 * statement folds in): the control plane's domain routes, and the auth runtime's enrollment.
 * Changes lock the organization's row first (the lock order of OrganizationMembersRepository).
 */
@Injectable()
export class OrganizationDomainsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(OrganizationDomain);
  }

  /** Inserts a pending domain; null when the organization already has it. */
  async insert(
    manager: EntityManager,
    d: Pick<
      OrganizationDomain,
      'tenantId' | 'projectId' | 'organizationId' | 'domain' | 'verificationValue'
    >,
  ): Promise<OrganizationDomain | null> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO organization_domains (tenant_id, project_id, organization_id, domain, verification_value)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (organization_id, domain) DO NOTHING RETURNING id`,
      [d.tenantId, d.projectId, d.organizationId, d.domain, d.verificationValue],
    );
    return rows[0] ? this.repo(manager).findOneByOrFail({ id: rows[0].id }) : null;
  }

  list(organizationId: string, page: Page): Promise<[OrganizationDomain[], number]> {
    return this.repo().findAndCount({
      where: { organizationId },
      order: { domain: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  find(organizationId: string, id: string, manager?: EntityManager) {
    return this.repo(manager).findOne({ where: { organizationId, id } });
  }

  lock(manager: EntityManager, organizationId: string, id: string) {
    return this.repo(manager).findOne({
      where: { organizationId, id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** The organization (another one, or the same) for which the domain is verified in the project, or null. */
  async verifiedOwner(
    manager: EntityManager,
    projectId: string,
    domain: string,
  ): Promise<string | null> {
    const rows = await queryRows<{ organization_id: string }>(
      manager,
      `SELECT organization_id FROM organization_domains WHERE project_id = $1 AND domain = $2 AND status = 'verified'`,
      [projectId, domain],
    );
    return rows[0]?.organization_id ?? null;
  }

  /** The organization's verified domains. */
  async verifiedNames(manager: EntityManager, organizationId: string): Promise<string[]> {
    const rows = await queryRows<{ domain: string }>(
      manager,
      `SELECT domain FROM organization_domains WHERE organization_id = $1 AND status = 'verified'`,
      [organizationId],
    );
    return rows.map((r) => r.domain);
  }

  /** Marks the domain verified; a domain verified meanwhile for another organization raises the partial unique index's violation. */
  async markVerified(manager: EntityManager, id: string, at: Date): Promise<void> {
    await manager.query(
      `UPDATE organization_domains SET status = 'verified', verified_at = $2, updated_at = now() WHERE id = $1`,
      [id, at],
    );
  }

  async setEnrollment(
    manager: EntityManager,
    id: string,
    changes: { enrollment?: DomainEnrollment; defaultRole?: string },
  ): Promise<void> {
    await manager.query(
      `UPDATE organization_domains SET enrollment = COALESCE($2, enrollment), default_role = COALESCE($3, default_role), updated_at = now() WHERE id = $1`,
      [id, changes.enrollment ?? null, changes.defaultRole ?? null],
    );
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM organization_domains WHERE id = $1`, [id]);
  }

  /** How many domains of the project give `role` to the users they enrol (a role in use cannot be deleted). */
  async countGivingRole(manager: EntityManager, projectId: string, role: string): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      manager,
      `SELECT count(*)::int AS n FROM organization_domains WHERE project_id = $1 AND default_role = $2`,
      [projectId, role],
    );
    return n;
  }

  /** Auto-join on its own statement (an email just verified): the memberships it gave, with the organization's name. */
  async autoJoin(
    manager: EntityManager,
    u: { userId: string; projectId: string; domain: string },
  ): Promise<DomainJoinRow[]> {
    return queryRows<DomainJoinRow>(
      manager,
      `WITH joined AS (${autoJoinSql('$1', '$2', '$3')})
       SELECT j.organization_id, o.name AS organization_name, j.role
         FROM joined j JOIN organizations o ON o.id = j.organization_id`,
      [u.userId, u.projectId, u.domain],
    );
  }

  /** The verified `suggest` domains at `domain` of organizations of the project the user is not a member of. */
  suggestions(
    projectId: string,
    userId: string,
    domain: string,
    manager?: EntityManager,
  ): Promise<DomainSuggestionRow[]> {
    return queryRows<DomainSuggestionRow>(
      manager ?? this.dataSource.manager,
      `SELECT d.id, d.domain, d.default_role AS role, o.id AS organization_id, o.name AS organization_name,
              o.slug AS organization_slug, d.tenant_id
         FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
        WHERE d.project_id = $1 AND d.domain = $3 AND d.status = 'verified' AND d.enrollment = 'suggest'
          AND NOT EXISTS (SELECT 1 FROM organization_members m WHERE m.organization_id = d.organization_id AND m.user_id = $2)
        ORDER BY o.name, o.id`,
      [projectId, userId, domain],
    );
  }

  /** The organization of a domain, for a lock before a change (the lock order). */
  async organizationOf(projectId: string, id: string): Promise<string | null> {
    const rows = await queryRows<{ organization_id: string }>(
      this.dataSource.manager,
      `SELECT organization_id FROM organization_domains WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
    return rows[0]?.organization_id ?? null;
  }
}
