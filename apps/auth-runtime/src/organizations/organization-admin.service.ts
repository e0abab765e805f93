import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isId, uniqueViolation, type Organization } from '@gatehouse/entities';
import {
  EventRecorder,
  OrganizationInvitations,
  toInvitationResponse,
  type InvitationResponse,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import {
  ADMIN_ROLE,
  OrganizationMembersRepository,
  OrganizationsRepository,
  patchedSettings,
  ProjectRolesRepository,
  type MemberRow,
  type Page,
} from '@gatehouse/organizations';
import { ProblemError } from '@gatehouse/problem-details';
import { Clock } from '@gatehouse/platform';
import type {
  CreateMyOrganizationDto,
  InviteMemberDto,
  UpdateMyOrganizationDto,
} from './organization-member.dto';

const notFound = () => new ProblemError('not-found', { detail: 'No such organization.' });
const memberNotFound = () =>
  new ProblemError('not-found', { detail: 'No such member of this organization.' });
const lacking = (permission: string) =>
  new ProblemError('forbidden', {
    detail: `Your role in this organization does not grant ${permission}.`,
  });
const lastAdmin = () =>
  new ProblemError('conflict', {
    detail: 'The last admin of an organization cannot be removed or demoted.',
  });
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
const beyondOwn = () =>
  new ProblemError('forbidden', {
    detail: 'You cannot give, change or remove a role that grants more than yours.',
  });

/** The signed-in member acting on their organization: who they are there and what they may do. */
interface Acting {
  userId: string;
  role: string;
  permissions: string[];
}

export interface MemberView {
  organization_id: string;
  user_id: string;
  email: string;
  username: string | null;
  role: string;
  created_at: string;
  updated_at: string;
}

const memberView = (m: MemberRow): MemberView => ({
  organization_id: m.organization_id,
  user_id: m.user_id,
  email: m.email,
  username: m.username,
  role: m.role,
  created_at: new Date(m.created_at).toISOString(),
  updated_at: new Date(m.updated_at).toISOString(),
});

/**
 * Organizations managed by their own members (docs/api-contract.md §14): every route finds the
 * organization in the key's project and the caller's membership (not a member: 404, as for an
 * organization that does not exist), then asks for the permission it needs (403 without). Writes
 * lock the organization's row first (the lock order of OrganizationMembersRepository), so the
 * last-admin rule holds against the admin API and each other. A member never gives, changes or
 * removes a role that grants a permission they lack (no way up from `org:members:manage`), and
 * only an admin touches an admin. Events are the admin routes', with the user as actor.
 */
@Injectable()
export class OrganizationAdminService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly events: EventRecorder,
    private readonly invitations: OrganizationInvitations,
    private readonly clock: Clock,
  ) {}

  /** In a transaction holding the organization's row: the organization and the caller's access, or 404. */
  private acting<T>(
    project: ResolvedProject,
    userId: string,
    organizationId: string,
    work: (manager: EntityManager, org: Organization, me: Acting) => Promise<T>,
  ): Promise<T> {
    if (!isId(organizationId)) throw notFound();
    return this.dataSource.transaction(async (manager) => {
      const org = await this.organizations.lockInProject(manager, project.id, organizationId);
      const access = org ? await this.members.access(manager, org.id, userId) : null;
      if (!org || !access) throw notFound();
      return work(manager, org, { userId, ...access });
    });
  }

  private require(me: Acting, permission: string): void {
    if (!me.permissions.includes(permission)) throw lacking(permission);
  }

  /** Whether `me` holds every permission `role` grants (an admin's role only an admin). */
  private async mayHandle(manager: EntityManager, org: Organization, me: Acting, role: string) {
    if (me.role === ADMIN_ROLE) return true;
    if (role === ADMIN_ROLE) return false;
    const row = await this.roles.findByKey(org.projectId, role, manager);
    return (row?.permissions ?? []).every((p) => me.permissions.includes(p));
  }

  private record(
    manager: EntityManager,
    project: ResolvedProject,
    me: Acting,
    meta: RequestMeta,
    e: { action: string; resourceType: string; resourceId: string; data: Record<string, unknown> },
  ) {
    return this.events.record(manager, {
      tenantId: project.tenantId,
      projectId: project.id,
      actorType: 'user',
      actorId: me.userId,
      meta,
      ...e,
    });
  }

  private memberEvent(
    manager: EntityManager,
    project: ResolvedProject,
    me: Acting,
    meta: RequestMeta,
    org: Organization,
    action: string,
    m: MemberRow,
    extra: Record<string, unknown> = {},
  ) {
    return this.record(manager, project, me, meta, {
      action,
      resourceType: 'organization_member',
      resourceId: m.user_id,
      data: {
        organization: { id: org.id, name: org.name },
        member: { user_id: m.user_id, email: m.email, role: m.role },
        ...extra,
      },
    });
  }

  /**
   * Creates an organization with the caller as its `admin`, when the project's
   * `settings.organizations.allow_user_create` is true (else 403); a given slug already taken is 409.
   */
  async create(
    project: ResolvedProject,
    userId: string,
    dto: CreateMyOrganizationDto,
    meta: RequestMeta,
  ) {
    if (project.settings.organizations?.allow_user_create !== true)
      throw new ProblemError('forbidden', {
        detail: 'This project does not let its users create organizations.',
      });
    return this.dataSource.transaction(async (manager) => {
      const org = await this.organizations.insertWithSlug(manager, {
        tenantId: project.tenantId,
        projectId: project.id,
        name: dto.name,
        ...(dto.slug !== undefined ? { slug: dto.slug } : {}),
        metadata: {},
      });
      if (!org) throw slugTaken();
      const member = await this.members.insertIfUserInProject(manager, {
        tenantId: project.tenantId,
        organizationId: org.id,
        projectId: project.id,
        userId,
        role: ADMIN_ROLE,
      });
      if (!member)
        throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
      const access = (await this.members.access(manager, org.id, userId))!;
      const me: Acting = { userId, ...access };
      await this.record(manager, project, me, meta, {
        action: 'organization.created',
        resourceType: 'organization',
        resourceId: org.id,
        data: { organization: summary(org) },
      });
      await this.memberEvent(manager, project, me, meta, org, 'organization.member.added', member, {
        via: 'created',
      });
      return { id: org.id, name: org.name, slug: org.slug, ...access };
    });
  }

  async update(
    project: ResolvedProject,
    userId: string,
    organizationId: string,
    dto: UpdateMyOrganizationDto,
    meta: RequestMeta,
  ) {
    try {
      return await this.acting(project, userId, organizationId, async (manager, org, me) => {
        this.require(me, 'org:settings:manage');
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        for (const f of ['name', 'slug'] as const)
          if (dto[f] !== undefined && dto[f] !== org[f]) changes[f] = { from: org[f], to: dto[f] };
        const settings = patchedSettings(org.settings, dto.settings);
        if (JSON.stringify(settings) !== JSON.stringify(org.settings))
          changes.settings = { from: org.settings, to: settings };
        if (Object.keys(changes).length) {
          Object.assign(org, { name: dto.name ?? org.name, slug: dto.slug ?? org.slug, settings });
          await this.organizations.save(manager, org);
          await this.record(manager, project, me, meta, {
            action: 'organization.updated',
            resourceType: 'organization',
            resourceId: org.id,
            data: {
              organization: {
                id: org.id,
                project_id: org.projectId,
                name: org.name,
                slug: org.slug,
              },
              changed: Object.keys(changes),
              changes,
            },
          });
        }
        return {
          id: org.id,
          name: org.name,
          slug: org.slug,
          role: me.role,
          permissions: me.permissions,
        };
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) throw slugTaken();
      throw err;
    }
  }

  async remove(
    project: ResolvedProject,
    userId: string,
    organizationId: string,
    meta: RequestMeta,
  ) {
    await this.acting(project, userId, organizationId, async (manager, org, me) => {
      this.require(me, 'org:delete');
      await this.organizations.delete(manager, org.id);
      await this.record(manager, project, me, meta, {
        action: 'organization.deleted',
        resourceType: 'organization',
        resourceId: org.id,
        data: { organization: summary(org) },
      });
    });
  }

  async listMembers(project: ResolvedProject, userId: string, organizationId: string, page: Page) {
    const org = await this.acting(project, userId, organizationId, async (_m, o, me) => {
      this.require(me, 'org:members:read');
      return o;
    });
    const [rows, total] = await this.members.list(org.id, page);
    return { members: rows.map(memberView), total };
  }

  async updateMember(
    project: ResolvedProject,
    userId: string,
    organizationId: string,
    memberId: string,
    role: string,
    meta: RequestMeta,
  ): Promise<MemberView> {
    return this.acting(project, userId, organizationId, async (manager, org, me) => {
      this.require(me, 'org:members:manage');
      const current = isId(memberId) ? await this.members.find(manager, org.id, memberId) : null;
      if (!current) throw memberNotFound();
      if (current.role === role) return memberView(current);
      if (
        !(await this.mayHandle(manager, org, me, current.role)) ||
        !(await this.mayHandle(manager, org, me, role))
      )
        throw beyondOwn();
      if (!(await this.roles.lockAssignable(manager, org.projectId, role)))
        throw ProblemError.validation({ role: ['is not a role of this project'] });
      if (current.role === ADMIN_ROLE && (await this.members.countAdmins(manager, org.id)) <= 1)
        throw lastAdmin();
      await this.members.updateRole(manager, org.id, memberId, role);
      const updated = (await this.members.find(manager, org.id, memberId))!;
      await this.memberEvent(
        manager,
        project,
        me,
        meta,
        org,
        'organization.member.updated',
        updated,
        {
          previous_role: current.role,
        },
      );
      return memberView(updated);
    });
  }

  /** Removes a member (`org:members:manage`), or the caller themselves when `memberId` is theirs (leaving needs no permission). */
  async removeMember(
    project: ResolvedProject,
    userId: string,
    organizationId: string,
    memberId: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.acting(project, userId, organizationId, async (manager, org, me) => {
      const leaving = memberId === userId;
      if (!leaving) this.require(me, 'org:members:manage');
      const current = isId(memberId) ? await this.members.find(manager, org.id, memberId) : null;
      if (!current) throw memberNotFound();
      if (!leaving && !(await this.mayHandle(manager, org, me, current.role))) throw beyondOwn();
      if (current.role === ADMIN_ROLE && (await this.members.countAdmins(manager, org.id)) <= 1)
        throw lastAdmin();
      await this.members.remove(manager, org.id, memberId);
      await this.memberEvent(
        manager,
        project,
        me,
        meta,
        org,
        'organization.member.removed',
        current,
        leaving ? { via: 'leave' } : {},
      );
    });
  }

  /** Invites an email address (`org:members:manage`) with a role no more than the caller's own; the admin API's mail and event. */
  async invite(
    project: ResolvedProject,
    userId: string,
    organizationId: string,
    dto: InviteMemberDto,
    meta: RequestMeta,
  ): Promise<InvitationResponse> {
    const role = dto.role ?? 'member';
    const invitation = await this.acting(
      project,
      userId,
      organizationId,
      async (manager, org, me) => {
        this.require(me, 'org:members:manage');
        if (!(await this.mayHandle(manager, org, me, role))) throw beyondOwn();
        return this.invitations.issue(manager, {
          organization: org,
          project,
          email: dto.email.trim(),
          role,
          invitedBy: userId,
          actor: { tenantId: project.tenantId, actorType: 'user', actorId: userId },
          meta,
        });
      },
    );
    return toInvitationResponse(invitation, this.clock.nowMs());
  }
}
