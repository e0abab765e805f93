import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiResource, isId, queryRows } from '@gatehouse/entities';
import { ProjectRowsRepository } from '../project-rows.repository';
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
export class ApiResourcesRepository extends ProjectRowsRepository<ApiResource, ApiResourceChanges> {
  constructor(dataSource: DataSource) {
    super(dataSource, ApiResource, 'id', isId);
  }

  /** Inserts a resource; a duplicate identifier in the project raises the unique violation (the caller answers 409). */
  create(manager: EntityManager, values: NewApiResource): Promise<ApiResource> {
    const repo = this.repo(manager);
    return repo.save(repo.create(values));
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
