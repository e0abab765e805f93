import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId, uniqueViolation } from '@gatehouse/entities';
import type { Organization } from '@gatehouse/entities';
import { EventRecorder, ProjectsRepository, type RequestMeta } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import type { CreateOrganizationDto } from './dto/create-organization.dto';
import type { UpdateOrganizationDto } from './dto/update-organization.dto';
import { toOrganizationResponse } from './organization.response';
import {
  OrganizationsRepository,
  patchedSettings,
  type OrganizationFilter,
} from '@gatehouse/organizations';

const notFound = () => new ProblemError('not-found', { detail: 'No such organization.' });
const slugTaken = () =>
  new ProblemError('conflict', {
    detail: 'This slug is already used in the project.',
    errors: { slug: ['is already taken in this project'] },
  });

const summary = (o: Organization) => ({
  id: o.id,
  project_id: o.projectId,
  name: o.name,
  slug: o.slug,
});

/** `data.changes` of `organization.updated` (docs/api-contract.md §13): `{from, to}` of each field whose value changed. */
type OrgFields = Pick<Organization, 'name' | 'slug' | 'metadata' | 'settings'>;

function orgChanges(before: OrgFields, after: OrgFields) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const f of ['name', 'slug', 'metadata', 'settings'] as const)
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f]))
      changes[f] = { from: before[f], to: after[f] };
  return changes;
}

/** Organizations belong to a project of the admin's tenant; slugs are unique per project. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly projects: ProjectsRepository,
    private readonly events: EventRecorder,
  ) {}

  async create(admin: AdminContext, dto: CreateOrganizationDto, meta: RequestMeta) {
    const project = isId(dto.project_id)
      ? await this.projects.findInTenant(admin.tenantId, dto.project_id)
      : null;
    if (!project) throw new ProblemError('not-found', { detail: 'No such project.' });
    const org = await this.dataSource.transaction(async (manager) => {
      const created = await this.organizations.insertWithSlug(manager, {
        tenantId: admin.tenantId,
        projectId: project.id,
        name: dto.name,
        ...(dto.slug !== undefined ? { slug: dto.slug } : {}),
        metadata: dto.metadata ?? {},
        settings: patchedSettings({}, dto.settings),
      });
      if (!created) throw slugTaken();
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: project.id,
          action: 'organization.created',
          resourceType: 'organization',
          resourceId: created.id,
          data: { organization: summary(created) },
        }),
      );
      return created;
    });
    return toOrganizationResponse(org);
  }

  async list(tenantId: string, filter: OrganizationFilter, page: Page) {
    if (filter.projectId !== undefined && !isId(filter.projectId))
      return paginated('organizations', [], page, 0);
    const [rows, total] = await this.organizations.list(tenantId, filter, page);
    return paginated('organizations', rows.map(toOrganizationResponse), page, total);
  }

  async get(tenantId: string, id: string) {
    const org = isId(id) ? await this.organizations.findInTenant(tenantId, id) : null;
    if (!org) throw notFound();
    return toOrganizationResponse(org);
  }

  async update(admin: AdminContext, id: string, dto: UpdateOrganizationDto, meta: RequestMeta) {
    if (!isId(id)) throw notFound();
    try {
      const org = await this.dataSource.transaction(async (manager) => {
        const row = await this.organizations.lockInTenant(manager, admin.tenantId, id);
        if (!row) throw notFound();
        const settings = patchedSettings(row.settings, dto.settings);
        // A settings PATCH that changes no policy is no change (the other fields count when given).
        const changed = (['name', 'slug', 'metadata', 'settings'] as const).filter((k) =>
          k === 'settings'
            ? JSON.stringify(settings) !== JSON.stringify(row.settings)
            : dto[k] !== undefined,
        );
        if (!changed.length) return row;
        const before = {
          name: row.name,
          slug: row.slug,
          metadata: row.metadata,
          settings: row.settings,
        };
        if (dto.name !== undefined) row.name = dto.name;
        if (dto.slug !== undefined) row.slug = dto.slug;
        if (dto.metadata !== undefined) row.metadata = dto.metadata;
        row.settings = settings;
        const saved = await this.organizations.save(manager, row);
        await this.events.record(
          manager,
          adminEvent(admin, meta, {
            projectId: row.projectId,
            action: 'organization.updated',
            resourceType: 'organization',
            resourceId: row.id,
            data: { organization: summary(saved), changed, changes: orgChanges(before, saved) },
          }),
        );
        return saved;
      });
      return toOrganizationResponse(org);
    } catch (err) {
      if (uniqueViolation(err) !== null) throw slugTaken();
      throw err;
    }
  }

  async delete(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    if (!isId(id)) throw notFound();
    await this.dataSource.transaction(async (manager) => {
      const row = await this.organizations.lockInTenant(manager, admin.tenantId, id);
      if (!row) throw notFound();
      await this.organizations.delete(manager, row.id);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: row.projectId,
          action: 'organization.deleted',
          resourceType: 'organization',
          resourceId: row.id,
          data: { organization: summary(row) },
        }),
      );
    });
  }
}
