import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { uniqueViolation, type Project, type ProjectRole } from '@gatehouse/entities';
import { EventRecorder, ProjectsRepository, type RequestMeta } from '@gatehouse/identity';
import {
  ADMIN_ROLE,
  BUILT_IN_ROLE_NAMES,
  BUILT_IN_ROLES,
  grantedPermissions,
  InvitationsRepository,
  OrganizationDomainsRepository,
  SsoConnectionsRepository,
  isBuiltInRole,
  isSystemPermission,
  MAX_PROJECT_ROLES,
  OrganizationMembersRepository,
  ProjectPermissionsRepository,
  ProjectRolesRepository,
  sortPermissions,
  SYSTEM_PERMISSIONS,
  type ProjectRoleChanges,
} from '@gatehouse/organizations';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { fieldChanges } from '../common/field-changes';
import { paginated, type Page } from '@gatehouse/http';
import { adminProject, pageAfterFixed } from './catalog';
import type { CreateRoleDto } from './dto/create-role.dto';
import type { UpdateRoleDto } from './dto/update-role.dto';
import type { RoleResponse } from './role.response';

const roleNotFound = () =>
  new ProblemError('not-found', { detail: 'No such role in this project.' });
const builtInKept = () =>
  new ProblemError('conflict', {
    detail: 'admin and member are built into every project and cannot be deleted.',
  });

const SNAKE: Record<keyof ProjectRoleChanges, string> = {
  name: 'name',
  description: 'description',
  permissions: 'permissions',
};

/**
 * A project's roles (docs/api-contract.md §14): the built-in `admin` (every permission) and
 * `member` without rows until an admin changes them, custom roles by key. A role's permissions
 * must be system ones or the catalog's (taken FOR SHARE, so a concurrent deletion of one waits and
 * then sees it granted); a role a member or a pending invitation holds cannot be deleted (409).
 * Every change locks the project's row first (one writer of a project's catalog at a time).
 */
@Injectable()
export class RolesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly permissions: ProjectPermissionsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly domains: OrganizationDomainsRepository,
    private readonly connections: SsoConnectionsRepository,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  private view(
    project: Project,
    key: string,
    row: ProjectRole | null,
    catalog: readonly string[],
  ): RoleResponse {
    const builtIn = isBuiltInRole(key);
    const fallback = builtIn ? BUILT_IN_ROLE_NAMES[key] : { name: key, description: '' };
    return {
      key,
      name: row?.name ?? fallback.name,
      description: row?.description ?? fallback.description,
      permissions: grantedPermissions(key, row?.permissions ?? [], catalog),
      built_in: builtIn,
      created_at: (row?.createdAt ?? project.createdAt).toISOString(),
      updated_at: (row?.updatedAt ?? project.createdAt).toISOString(),
    };
  }

  private event(
    admin: AdminContext,
    meta: RequestMeta,
    action: string,
    role: ProjectRole,
    view: RoleResponse,
    extra: Record<string, unknown> = {},
  ) {
    const { created_at: _c, updated_at: _u, ...members } = view;
    return adminEvent(admin, meta, {
      projectId: role.projectId,
      action,
      resourceType: 'role',
      resourceId: role.id,
      data: { role: { ...members, project_id: role.projectId }, ...extra },
    });
  }

  /** The given permission keys, checked against the catalog (rows locked FOR SHARE), sorted; 400 naming the unknown ones. */
  private async checkedPermissions(
    manager: EntityManager,
    projectId: string,
    keys: string[],
  ): Promise<string[]> {
    const own = keys.filter((k) => !isSystemPermission(k));
    const found = await this.permissions.lockKeys(manager, projectId, own);
    const unknown = own.filter((k) => !found.has(k));
    if (unknown.length)
      throw ProblemError.validation({
        permissions: unknown.slice(0, 10).map((k) => `${k} is not a permission of this project`),
      });
    return sortPermissions(keys);
  }

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = await adminProject(this.projects, admin, projectId);
    const { head, rows } = pageAfterFixed(BUILT_IN_ROLES, page);
    const [stored, builtIns, catalog] = await Promise.all([
      rows.limit
        ? this.roles.listCustom(project.id, rows)
        : this.roles.countCustom(project.id).then((n) => [[], n] as [ProjectRole[], number]),
      this.roles.builtIns(project.id),
      head.includes(ADMIN_ROLE) ? this.permissions.keys(project.id) : Promise.resolve([]),
    ]);
    const items = [
      ...head.map((key) => this.view(project, key, builtIns.get(key) ?? null, catalog)),
      ...stored[0].map((r) => this.view(project, r.key, r, catalog)),
    ];
    return paginated('roles', items, page, BUILT_IN_ROLES.length + stored[1]);
  }

  async get(admin: AdminContext, projectId: string, key: string): Promise<RoleResponse> {
    const project = await adminProject(this.projects, admin, projectId);
    const row = await this.roles.findByKey(project.id, key);
    if (!row && !isBuiltInRole(key)) throw roleNotFound();
    const catalog = key === ADMIN_ROLE ? await this.permissions.keys(project.id) : [];
    return this.view(project, key, row, catalog);
  }

  async create(
    admin: AdminContext,
    projectId: string,
    dto: CreateRoleDto,
    meta: RequestMeta,
  ): Promise<RoleResponse> {
    const duplicate = () =>
      new ProblemError('conflict', {
        detail: 'The project already has a role with this key.',
        errors: { key: ['is already a role of this project'] },
      });
    if (isBuiltInRole(dto.key)) throw duplicate();
    try {
      return await this.dataSource.transaction(async (manager) => {
        const project = await adminProject(this.projects, admin, projectId, manager);
        if ((await this.roles.countCustom(project.id, manager)) >= MAX_PROJECT_ROLES)
          throw new ProblemError('conflict', {
            detail: `A project has at most ${MAX_PROJECT_ROLES} custom roles.`,
          });
        const permissions = await this.checkedPermissions(manager, project.id, dto.permissions);
        const role = await this.roles.create(manager, {
          tenantId: admin.tenantId,
          projectId: project.id,
          key: dto.key,
          name: dto.name,
          description: dto.description ?? '',
          permissions,
        });
        const view = this.view(project, role.key, role, []);
        await this.events.record(manager, this.event(admin, meta, 'role.created', role, view));
        return view;
      });
    } catch (err) {
      if (uniqueViolation(err) === 'project_roles_project_key_key') throw duplicate();
      throw err;
    }
  }

  /**
   * Applies the given members; a built-in role's first change stores its row. `admin` keeps every
   * permission: a `permissions` list that leaves one out is 409. Nothing is written when every
   * given member equals what the role has.
   */
  async update(
    admin: AdminContext,
    projectId: string,
    key: string,
    dto: UpdateRoleDto,
    meta: RequestMeta,
  ): Promise<RoleResponse> {
    return this.dataSource.transaction(async (manager) => {
      const project = await adminProject(this.projects, admin, projectId, manager);
      const catalog = key === ADMIN_ROLE ? await this.permissions.keys(project.id, manager) : [];
      let row = await this.roles.lockByKey(manager, project.id, key);
      if (!row && !isBuiltInRole(key)) throw roleNotFound();
      const current = this.view(project, key, row, catalog);
      const given: ProjectRoleChanges = {};
      if (dto.name !== undefined) given.name = dto.name;
      if (dto.description !== undefined) given.description = dto.description;
      if (dto.permissions !== undefined) {
        if (key === ADMIN_ROLE) {
          const everything = [...SYSTEM_PERMISSIONS, ...catalog];
          if (everything.some((p) => !dto.permissions!.includes(p)))
            throw new ProblemError('conflict', {
              detail: 'The admin role holds every permission; its permissions cannot be narrowed.',
            });
        } else {
          given.permissions = await this.checkedPermissions(manager, project.id, dto.permissions);
        }
      }
      const changed = (Object.keys(given) as (keyof ProjectRoleChanges)[]).filter(
        (k) => JSON.stringify(given[k]) !== JSON.stringify(current[k]),
      );
      if (!changed.length) return current;
      const before = {
        name: current.name,
        description: current.description,
        permissions: current.permissions,
      };
      const changes = Object.fromEntries(changed.map((k) => [k, given[k]])) as ProjectRoleChanges;
      row = row
        ? await this.roles.update(manager, row, changes)
        : await this.roles.create(manager, {
            tenantId: admin.tenantId,
            projectId: project.id,
            key,
            name: current.name,
            description: current.description,
            permissions: key === ADMIN_ROLE ? [] : current.permissions,
            ...changes,
          });
      const view = this.view(project, key, row, catalog);
      await this.events.record(
        manager,
        this.event(admin, meta, 'role.updated', row, view, {
          changes: fieldChanges(changed, SNAKE, before, view),
        }),
      );
      return view;
    });
  }

  /** Deletes a custom role nobody holds (members of the project's organizations, pending invitations) and no domain or SSO connection gives; else 409. */
  async remove(admin: AdminContext, projectId: string, key: string, meta: RequestMeta) {
    await this.dataSource.transaction(async (manager) => {
      const project = await adminProject(this.projects, admin, projectId, manager);
      if (isBuiltInRole(key)) throw builtInKept();
      const row = await this.roles.lockByKey(manager, project.id, key);
      if (!row) throw roleNotFound();
      const members = await this.members.countHolding(manager, project.id, key);
      const invited = await this.invitations.countPendingWithRole(
        manager,
        project.id,
        key,
        this.clock.now(),
      );
      const domains = await this.domains.countGivingRole(manager, project.id, key);
      const connections = await this.connections.countGivingRole(manager, project.id, key);
      if (members || invited || domains || connections)
        throw new ProblemError('conflict', {
          detail: `The role is held by ${members} member(s) and ${invited} pending invitation(s)${domains ? ` and given by ${domains} organization domain(s)` : ''}${connections ? ` and given by ${connections} SSO connection(s)` : ''}: give them another role first.`,
        });
      await this.roles.delete(manager, row.id);
      await this.events.record(
        manager,
        this.event(admin, meta, 'role.deleted', row, this.view(project, key, row, [])),
      );
    });
  }
}
