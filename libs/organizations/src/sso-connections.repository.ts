import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { queryRows, SsoConnection } from '@gatehouse/entities';
import type { Page } from './page';

export type NewSsoConnection = { id?: string } & Pick<
  SsoConnection,
  | 'tenantId'
  | 'projectId'
  | 'organizationId'
  | 'type'
  | 'name'
  | 'domains'
  | 'enabled'
  | 'enforce'
  | 'jitEnabled'
  | 'jitDefaultRole'
  | 'attributeMapping'
  | 'groupRoles'
  | 'saml'
  | 'oidc'
  | 'oidcClientSecretEncrypted'
  | 'spCertificate'
  | 'spPrivateKeyEncrypted'
>;

/** What a change may set (the type and the service provider's key never change). */
export type SsoConnectionChanges = Partial<
  Pick<
    SsoConnection,
    | 'name'
    | 'domains'
    | 'enabled'
    | 'enforce'
    | 'jitEnabled'
    | 'jitDefaultRole'
    | 'attributeMapping'
    | 'groupRoles'
    | 'saml'
    | 'oidc'
    | 'oidcClientSecretEncrypted'
  >
>;

/**
 * The only code that queries `sso_connections`. Changes run under the organization's row lock
 * (the lock order of OrganizationMembersRepository), which also serialises the check that a domain
 * is in at most one connection.
 */
@Injectable()
export class SsoConnectionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(SsoConnection);
  }

  async insert(manager: EntityManager, c: NewSsoConnection): Promise<SsoConnection> {
    const saved = await this.repo(manager).save(this.repo(manager).create(c));
    return this.repo(manager).findOneByOrFail({ id: saved.id });
  }

  list(organizationId: string, page: Page): Promise<[SsoConnection[], number]> {
    return this.repo().findAndCount({
      where: { organizationId },
      order: { createdAt: 'ASC', id: 'ASC' },
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

  /** Which of `domains` another connection of the organization already serves. */
  async domainsTaken(
    manager: EntityManager,
    organizationId: string,
    domains: string[],
    exceptId: string | null,
  ): Promise<string[]> {
    if (!domains.length) return [];
    const rows = await queryRows<{ domain: string }>(
      manager,
      `SELECT DISTINCT d AS domain FROM sso_connections c, unnest(c.domains) d
        WHERE c.organization_id = $1 AND c.domains && $2::text[] AND d = ANY($2::text[])
          AND ($3::uuid IS NULL OR c.id <> $3::uuid)
        ORDER BY 1`,
      [organizationId, domains, exceptId],
    );
    return rows.map((r) => r.domain);
  }

  async update(manager: EntityManager, id: string, changes: SsoConnectionChanges): Promise<void> {
    if (Object.keys(changes).length) await this.repo(manager).update({ id }, changes);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM sso_connections WHERE id = $1`, [id]);
  }

  /** A connection by its id alone (the service provider's public routes: metadata, ACS). */
  findById(id: string): Promise<SsoConnection | null> {
    return this.repo().findOne({ where: { id } });
  }

  /** The enabled connection of the project that serves `domain` (home-realm discovery), or null. */
  findEnabledByDomain(projectId: string, domain: string): Promise<SsoConnection | null> {
    return this.repo()
      .createQueryBuilder('c')
      .where('c.project_id = :projectId AND c.enabled AND c.domains @> ARRAY[:domain]::text[]', {
        projectId,
        domain,
      })
      .orderBy('c.created_at', 'ASC')
      .getOne();
  }

  /** How many connections of the project give `role` (a role in use cannot be deleted). */
  async countGivingRole(manager: EntityManager, projectId: string, role: string): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      manager,
      `SELECT count(*)::int AS n FROM sso_connections
        WHERE project_id = $1
          AND (jit_default_role = $2 OR EXISTS (SELECT 1 FROM jsonb_each_text(group_roles) g WHERE g.value = $2))`,
      [projectId, role],
    );
    return n;
  }
}
