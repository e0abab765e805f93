import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiResource, isId, queryRows } from '@gatehouse/entities';
import { normalizeApiResourceIdentifier } from './api-resource-rules';

export type NewApiResource = Pick<
  ApiResource,
  | 'tenantId'
  | 'projectId'
  | 'identifier'
  | 'name'
  | 'scopes'
  | 'accessTokenTtlSeconds'
  | 'allowDynamicClients'
>;
export type ApiResourceChanges = Partial<
  Pick<
    ApiResource,
    'identifier' | 'name' | 'scopes' | 'accessTokenTtlSeconds' | 'allowDynamicClients'
  >
>;

/**
 * The only code that queries `api_resources`: the admin API's reads and writes (scoped to a tenant
 * and a project) and the OpenID Connect provider's lookup of a `resource` parameter in its project.
 */
@Injectable()
export class ApiResourcesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ApiResource);
  }

  /** Inserts a resource; a duplicate identifier in the project raises the unique violation (the caller answers 409). */
  create(manager: EntityManager, values: NewApiResource): Promise<ApiResource> {
    const repo = this.repo(manager);
    return repo.save(repo.create(values));
  }

  /** The project's resources, newest first (index api_resources_project_idx). */
  list(
    tenantId: string,
    projectId: string,
    page: { limit: number; offset: number },
  ): Promise<[ApiResource[], number]> {
    return this.repo().findAndCount({
      where: { tenantId, projectId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /** A resource of this project of this tenant, or null (a malformed id names none). */
  async getInProject(
    tenantId: string,
    projectId: string,
    id: string,
    manager?: EntityManager,
  ): Promise<ApiResource | null> {
    if (!isId(id)) return null;
    return this.repo(manager).findOne({ where: { tenantId, projectId, id } });
  }

  /** Reads and row-locks a resource of this project until the transaction ends. */
  async lockInProject(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    id: string,
  ): Promise<ApiResource | null> {
    if (!isId(id)) return null;
    return this.repo(manager).findOne({
      where: { tenantId, projectId, id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** The project's resource a `resource` parameter names (matched in URL-normalised form), or null. */
  async findByIdentifier(projectId: string, resource: string): Promise<ApiResource | null> {
    const identifier = normalizeApiResourceIdentifier(resource);
    if (!identifier) return null;
    return this.repo().findOne({ where: { projectId, identifier } });
  }

  /** The scopes of the project's resources that self-registered clients may use (what dynamic registration may name). */
  async dynamicClientScopes(projectId: string): Promise<Set<string>> {
    const rows = await queryRows<{ name: string }>(
      this.dataSource.manager,
      `SELECT DISTINCT s->>'name' AS name FROM api_resources r, jsonb_array_elements(r.scopes) s WHERE r.project_id = $1 AND r.allow_dynamic_clients`,
      [projectId],
    );
    return new Set(rows.map((r) => r.name));
  }

  /** Applies changes to a (locked) resource and saves it; `updated_at` moves. */
  update(
    manager: EntityManager,
    resource: ApiResource,
    changes: ApiResourceChanges,
  ): Promise<ApiResource> {
    return this.repo(manager).save(Object.assign(resource, changes));
  }

  async delete(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    id: string,
  ): Promise<boolean> {
    if (!isId(id)) return false;
    const rows = await queryRows<{ id: string }>(
      manager,
      `DELETE FROM api_resources WHERE tenant_id = $1 AND project_id = $2 AND id = $3 RETURNING id`,
      [tenantId, projectId, id],
    );
    return rows.length > 0;
  }
}
