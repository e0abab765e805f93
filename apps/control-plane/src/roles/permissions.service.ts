import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uniqueViolation, type ProjectPermission } from '@gatehouse/entities';
import { EventRecorder, ProjectsRepository, type RequestMeta } from '@gatehouse/identity';
import {
  MAX_PROJECT_PERMISSIONS,
  ProjectPermissionsRepository,
  ProjectRolesRepository,
  SYSTEM_PERMISSIONS,
} from '@gatehouse/organizations';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import { adminProject, pageAfterFixed } from './catalog';
import type { CreatePermissionDto } from './dto/create-permission.dto';
import { toPermissionResponse, type PermissionResponse } from './permission.response';

/** What each system permission lets a member do in the end-user organization API. */
export const SYSTEM_PERMISSION_DESCRIPTIONS: Record<(typeof SYSTEM_PERMISSIONS)[number], string> = {
  'org:members:read': "See the organization's members",
  'org:members:manage': 'Invite, change the role of and remove members',
  'org:settings:manage': "Change the organization's name, slug and settings",
  'org:delete': 'Delete the organization',
};

const SYSTEM: PermissionResponse[] = SYSTEM_PERMISSIONS.map((key) => ({
  key,
  description: SYSTEM_PERMISSION_DESCRIPTIONS[key],
  system: true,
  created_at: null,
}));

const permissionNotFound = () =>
  new ProblemError('not-found', { detail: 'No such permission in this project.' });

/**
 * A project's permission catalog (docs/api-contract.md §14): keys unique per project (409), the
 * system permissions listed first and never stored, a permission a role grants not deletable
 * (409); every change writes its audit + outbox event in its transaction.
 */
@Injectable()
export class PermissionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly permissions: ProjectPermissionsRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly events: EventRecorder,
  ) {}

  private event(admin: AdminContext, meta: RequestMeta, action: string, p: ProjectPermission) {
    return adminEvent(admin, meta, {
      projectId: p.projectId,
      action,
      resourceType: 'permission',
      resourceId: p.id,
      data: { permission: { key: p.key, description: p.description, project_id: p.projectId } },
    });
  }

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = await adminProject(this.projects, admin, projectId);
    const { head, rows } = pageAfterFixed(SYSTEM, page);
    const [stored, total] = rows.limit
      ? await this.permissions.list(project.id, rows)
      : [[], await this.permissions.count(project.id)];
    return paginated(
      'permissions',
      [...head, ...stored.map(toPermissionResponse)],
      page,
      SYSTEM.length + total,
    );
  }

  async create(
    admin: AdminContext,
    projectId: string,
    dto: CreatePermissionDto,
    meta: RequestMeta,
  ): Promise<PermissionResponse> {
    try {
      const made = await this.dataSource.transaction(async (manager) => {
        const project = await adminProject(this.projects, admin, projectId, manager);
        if ((await this.permissions.count(project.id, manager)) >= MAX_PROJECT_PERMISSIONS)
          throw new ProblemError('conflict', {
            detail: `A project has at most ${MAX_PROJECT_PERMISSIONS} permissions.`,
          });
        const permission = await this.permissions.create(manager, {
          tenantId: admin.tenantId,
          projectId: project.id,
          key: dto.key,
          description: dto.description ?? '',
        });
        await this.events.record(
          manager,
          this.event(admin, meta, 'permission.created', permission),
        );
        return permission;
      });
      return toPermissionResponse(made);
    } catch (err) {
      if (uniqueViolation(err) === 'project_permissions_project_key_key')
        throw new ProblemError('conflict', {
          detail: 'The project already has this permission.',
          errors: { key: ['is already a permission of this project'] },
        });
      throw err;
    }
  }

  /** Deletes a permission no role grants; a granted one is 409 with the roles that grant it. */
  async remove(admin: AdminContext, projectId: string, key: string, meta: RequestMeta) {
    await this.dataSource.transaction(async (manager) => {
      const project = await adminProject(this.projects, admin, projectId, manager);
      if ((SYSTEM_PERMISSIONS as readonly string[]).includes(key))
        throw new ProblemError('conflict', {
          detail: 'A system permission belongs to every project and cannot be deleted.',
        });
      const permission = await this.permissions.lockByKey(manager, project.id, key);
      if (!permission) throw permissionNotFound();
      const granting = await this.roles.granting(manager, project.id, key);
      if (granting.length)
        throw new ProblemError('conflict', {
          detail: `Roles grant this permission (${granting.join(', ')}): take it out of them first.`,
        });
      await this.permissions.delete(manager, permission.id);
      await this.events.record(manager, this.event(admin, meta, 'permission.deleted', permission));
    });
  }
}
