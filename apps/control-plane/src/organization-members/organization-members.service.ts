import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { foreignKeyViolation, isId } from '@gatehouse/entities';
import type { Organization } from '@gatehouse/entities';
import { EventRecorder, type RequestMeta } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import { OrganizationsRepository } from '@gatehouse/organizations';
import type { AddMemberDto } from './dto/add-member.dto';
import type { UpdateMemberDto } from './dto/update-member.dto';
import { toMemberResponse } from './member.response';
import {
  OrganizationMembersRepository,
  ProjectRolesRepository,
  type MemberRow,
} from '@gatehouse/organizations';
import { requireAssignableRole } from '../roles/catalog';

const orgNotFound = () => new ProblemError('not-found', { detail: 'No such organization.' });
const memberNotFound = () =>
  new ProblemError('not-found', { detail: 'No such member of this organization.' });
const lastAdmin = () =>
  new ProblemError('conflict', {
    detail: 'The last admin of an organization cannot be removed or demoted.',
  });

/**
 * Members of an organization: users of its project with a role. Every change locks the
 * organization's row first, so the last-admin rule (409) holds under concurrent requests.
 */
@Injectable()
export class OrganizationMembersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly events: EventRecorder,
  ) {}

  async list(tenantId: string, organizationId: string, page: Page) {
    const org = isId(organizationId)
      ? await this.organizations.findInTenant(tenantId, organizationId)
      : null;
    if (!org) throw orgNotFound();
    const [rows, total] = await this.members.list(org.id, page);
    return paginated('members', rows.map(toMemberResponse), page, total);
  }

  private withLockedOrg<T>(
    admin: AdminContext,
    organizationId: string,
    work: (manager: EntityManager, org: Organization) => Promise<T>,
  ): Promise<T> {
    return this.organizations.withLockedInTenant(admin.tenantId, organizationId, orgNotFound, work);
  }

  private record(
    manager: EntityManager,
    admin: AdminContext,
    meta: RequestMeta,
    org: Organization,
    action: string,
    m: MemberRow,
    extra: Record<string, unknown> = {},
  ) {
    return this.events.record(
      manager,
      adminEvent(admin, meta, {
        projectId: org.projectId,
        action,
        resourceType: 'organization_member',
        resourceId: m.user_id,
        data: {
          organization: { id: org.id, name: org.name },
          member: { user_id: m.user_id, email: m.email, role: m.role },
          ...extra,
        },
      }),
    );
  }

  async add(admin: AdminContext, organizationId: string, dto: AddMemberDto, meta: RequestMeta) {
    const member = await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      const existing = isId(dto.user_id)
        ? await this.members.find(manager, org.id, dto.user_id)
        : null;
      if (existing)
        throw new ProblemError('conflict', {
          detail: 'This user is already a member.',
          errors: { user_id: ['is already a member'] },
        });
      const role = dto.role ?? 'member';
      await requireAssignableRole(this.roles, manager, org.projectId, role);
      const added = isId(dto.user_id)
        ? await this.members.insertIfUserInProject(manager, {
            tenantId: admin.tenantId,
            organizationId: org.id,
            projectId: org.projectId,
            userId: dto.user_id,
            role,
          })
        : null;
      if (!added)
        throw new ProblemError('not-found', {
          detail: "No such user in the organization's project.",
        });
      await this.record(manager, admin, meta, org, 'organization.member.added', added);
      return added;
    }).catch((err: unknown) => {
      // The user was deleted between our read and the insert.
      if (foreignKeyViolation(err))
        throw new ProblemError('not-found', {
          detail: "No such user in the organization's project.",
        });
      throw err;
    });
    return toMemberResponse(member);
  }

  async updateRole(
    admin: AdminContext,
    organizationId: string,
    userId: string,
    dto: UpdateMemberDto,
    meta: RequestMeta,
  ) {
    const member = await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      const current = isId(userId) ? await this.members.find(manager, org.id, userId) : null;
      if (!current) throw memberNotFound();
      if (current.role === dto.role) return current;
      await requireAssignableRole(this.roles, manager, org.projectId, dto.role);
      if (current.role === 'admin' && (await this.members.countAdmins(manager, org.id)) <= 1)
        throw lastAdmin();
      await this.members.updateRole(manager, org.id, userId, dto.role);
      const updated = (await this.members.find(manager, org.id, userId))!;
      await this.record(manager, admin, meta, org, 'organization.member.updated', updated, {
        previous_role: current.role,
      });
      return updated;
    });
    return toMemberResponse(member);
  }

  async remove(
    admin: AdminContext,
    organizationId: string,
    userId: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.withLockedOrg(admin, organizationId, async (manager, org) => {
      const current = isId(userId) ? await this.members.find(manager, org.id, userId) : null;
      if (!current) throw memberNotFound();
      if (current.role === 'admin' && (await this.members.countAdmins(manager, org.id)) <= 1)
        throw lastAdmin();
      await this.members.remove(manager, org.id, userId);
      await this.record(manager, admin, meta, org, 'organization.member.removed', current);
    });
  }
}
