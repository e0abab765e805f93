import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { paginated, type Page } from '@gatehouse/http';
import {
  EventRecorder,
  OrganizationInvitations,
  ProjectsRepository,
  toInvitationResponse,
  type RequestMeta,
} from '@gatehouse/identity';
import { InvitationsRepository, OrganizationsRepository } from '@gatehouse/organizations';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import type { CreateInvitationDto } from './dto/create-invitation.dto';

const orgNotFound = () => new ProblemError('not-found', { detail: 'No such organization.' });

/**
 * The admin API's invitations to an organization (created by OrganizationInvitations, as a
 * member's are), listed and revoked.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly projects: ProjectsRepository,
    private readonly issuer: OrganizationInvitations,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async create(
    admin: AdminContext,
    organizationId: string,
    dto: CreateInvitationDto,
    meta: RequestMeta,
  ) {
    if (!isId(organizationId)) throw orgNotFound();
    const email = dto.email.trim();
    const role = dto.role ?? 'member';
    const invitation = await this.dataSource.transaction(async (manager) => {
      const org = await this.organizations.lockInTenant(manager, admin.tenantId, organizationId);
      if (!org) throw orgNotFound();
      const project = await this.projects.findInTenant(admin.tenantId, org.projectId, manager);
      if (!project) throw orgNotFound();
      return this.issuer.issue(manager, {
        organization: org,
        project,
        email,
        role,
        invitedBy: admin.userId,
        actor: { tenantId: admin.tenantId, actorType: 'admin', actorId: admin.userId },
        meta,
      });
    });
    return toInvitationResponse(invitation, this.clock.nowMs());
  }

  async list(tenantId: string, organizationId: string, page: Page) {
    const org = isId(organizationId)
      ? await this.organizations.findInTenant(tenantId, organizationId)
      : null;
    if (!org) throw orgNotFound();
    const [rows, total] = await this.invitations.list(org.id, page);
    const now = this.clock.nowMs();
    return paginated(
      'invitations',
      rows.map((i) => toInvitationResponse(i, now)),
      page,
      total,
    );
  }

  async revoke(
    admin: AdminContext,
    organizationId: string,
    invitationId: string,
    meta: RequestMeta,
  ): Promise<void> {
    if (!isId(organizationId)) throw orgNotFound();
    await this.dataSource.transaction(async (manager) => {
      const org = await this.organizations.lockInTenant(manager, admin.tenantId, organizationId);
      if (!org) throw orgNotFound();
      const invitation = isId(invitationId)
        ? await this.invitations.find(manager, org.id, invitationId)
        : null;
      if (!invitation) throw new ProblemError('not-found', { detail: 'No such invitation.' });
      if (!(await this.invitations.revoke(manager, org.id, invitation.id, this.clock.now()))) {
        throw new ProblemError('conflict', {
          detail: `The invitation is already ${invitation.status}.`,
        });
      }
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: org.projectId,
          action: 'invitation.revoked',
          resourceType: 'invitation',
          resourceId: invitation.id,
          data: {
            invitation: {
              id: invitation.id,
              organization_id: org.id,
              email: invitation.email,
              role: invitation.role,
            },
          },
        }),
      );
    });
  }
}
