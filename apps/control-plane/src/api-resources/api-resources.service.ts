import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { uniqueViolation, type ApiResource, type ApiResourceScope } from '@gatehouse/entities';
import {
  ApiResourcesRepository,
  EventRecorder,
  normalizeApiResourceIdentifier,
  ProjectsRepository,
  type ApiResourceChanges,
  type RequestMeta,
} from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { patchRow } from '../common/field-changes';
import { paginated, type Page } from '@gatehouse/http';
import { tenantProject } from '../common/tenant-project';
import type { CreateApiResourceDto } from './dto/create-api-resource.dto';
import type { UpdateApiResourceDto } from './dto/update-api-resource.dto';
import { toApiResourceResponse, type ApiResourceResponse } from './api-resource.response';

const resourceNotFound = () =>
  new ProblemError('not-found', { detail: 'No such API resource of this project.' });
const duplicate = () =>
  new ProblemError('conflict', {
    detail: 'The project already has an API resource with this identifier.',
    errors: { identifier: ['is already registered in this project'] },
  });

/** What an event's `data` says about a resource: its members and project. */
function resourceData(r: ApiResource) {
  const { created_at: _c, updated_at: _u, ...members } = toApiResourceResponse(r);
  return { api_resource: { ...members, project_id: r.projectId } };
}

function scopesOf(list: { name: string; description?: string }[]): ApiResourceScope[] {
  return list.map((s) => ({ name: s.name, description: s.description ?? '' }));
}

const SNAKE: Record<keyof ApiResourceChanges, string> = {
  identifier: 'identifier',
  name: 'name',
  scopes: 'scopes',
  accessTokenTtlSeconds: 'access_token_ttl_seconds',
  allowDynamicClients: 'allow_dynamic_clients',
};

/**
 * The APIs of a project's OpenID Connect provider (docs/oidc.md, "API resources"): scoped to the
 * admin's tenant and the project in the path; identifiers unique per project (409); every change
 * writes its audit + outbox event in the same transaction.
 */
@Injectable()
export class ApiResourcesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly resources: ApiResourcesRepository,
    private readonly events: EventRecorder,
  ) {}

  private event(
    admin: AdminContext,
    meta: RequestMeta,
    action: string,
    r: ApiResource,
    data: Record<string, unknown>,
  ) {
    return adminEvent(admin, meta, {
      projectId: r.projectId,
      action,
      resourceType: 'api_resource',
      resourceId: r.id,
      data,
    });
  }

  /** Runs a write; the unique (project, identifier) violation becomes 409 conflict on `identifier`. */
  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (err) {
      if (uniqueViolation(err) === 'api_resources_project_identifier_key') throw duplicate();
      throw err;
    }
  }

  async create(
    admin: AdminContext,
    projectId: string,
    dto: CreateApiResourceDto,
    meta: RequestMeta,
  ): Promise<ApiResourceResponse> {
    const made = await this.write(async (manager) => {
      const project = await tenantProject(this.projects, admin.tenantId, projectId, manager);
      const resource = await this.resources.create(manager, {
        tenantId: admin.tenantId,
        projectId: project.id,
        identifier: normalizeApiResourceIdentifier(dto.identifier)!,
        name: dto.name,
        scopes: scopesOf(dto.scopes),
        accessTokenTtlSeconds: dto.access_token_ttl_seconds ?? null,
        allowDynamicClients: dto.allow_dynamic_clients ?? false,
      });
      await this.events.record(
        manager,
        this.event(admin, meta, 'api_resource.created', resource, resourceData(resource)),
      );
      return resource;
    });
    return toApiResourceResponse(made);
  }

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const [rows, total] = await this.resources.list(admin.tenantId, project.id, page);
    return paginated('api_resources', rows.map(toApiResourceResponse), page, total);
  }

  async get(admin: AdminContext, projectId: string, id: string): Promise<ApiResourceResponse> {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const resource = await this.resources.getInProject(admin.tenantId, project.id, id);
    if (!resource) throw resourceNotFound();
    return toApiResourceResponse(resource);
  }

  /** Applies the given members; nothing changes and no event is written when every given member equals the stored one. */
  async update(
    admin: AdminContext,
    projectId: string,
    id: string,
    dto: UpdateApiResourceDto,
    meta: RequestMeta,
  ): Promise<ApiResourceResponse> {
    const given: ApiResourceChanges = {};
    if (dto.identifier !== undefined)
      given.identifier = normalizeApiResourceIdentifier(dto.identifier)!;
    if (dto.name !== undefined) given.name = dto.name;
    if (dto.scopes !== undefined) given.scopes = scopesOf(dto.scopes);
    if (dto.access_token_ttl_seconds !== undefined)
      given.accessTokenTtlSeconds = dto.access_token_ttl_seconds;
    if (dto.allow_dynamic_clients !== undefined)
      given.allowDynamicClients = dto.allow_dynamic_clients;
    const updated = await this.write(async (manager) => {
      const project = await tenantProject(this.projects, admin.tenantId, projectId, manager);
      const resource = await this.resources.lockInProject(manager, admin.tenantId, project.id, id);
      if (!resource) throw resourceNotFound();
      return patchRow(resource, {
        given,
        names: SNAKE,
        save: (changes) => this.resources.update(manager, resource, changes),
        // `data.changes`: each changed member's `{from, to}` (a resource holds no secret).
        record: (saved, changes) =>
          this.events.record(
            manager,
            this.event(admin, meta, 'api_resource.updated', saved, {
              ...resourceData(saved),
              changes,
            }),
          ),
      });
    });
    return toApiResourceResponse(updated);
  }

  /** Deletes the resource: from then on a request naming it is `invalid_target` (tokens already issued live out their lifetime). */
  async remove(
    admin: AdminContext,
    projectId: string,
    id: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const project = await tenantProject(this.projects, admin.tenantId, projectId, manager);
      const resource = await this.resources.lockInProject(manager, admin.tenantId, project.id, id);
      if (!resource) throw resourceNotFound();
      await this.resources.delete(manager, admin.tenantId, project.id, resource.id);
      await this.events.record(
        manager,
        this.event(admin, meta, 'api_resource.deleted', resource, resourceData(resource)),
      );
    });
  }
}
