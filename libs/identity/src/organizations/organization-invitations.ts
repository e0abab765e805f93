import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { randomToken, sha256Hex } from '@gatehouse/crypto';
import type { Invitation, Organization } from '@gatehouse/entities';
import {
  InvitationsRepository,
  OrganizationMembersRepository,
  ProjectRolesRepository,
} from '@gatehouse/organizations';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { enqueueMail, MailQueue } from '@gatehouse/queue';
import { applicationPageLink } from '../application-links';
import { EventRecorder, type RecordedEvent, type RequestMeta } from '../event-recorder';

/** docs/api-contract.md §5: invitation tokens live 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/** What the invitation mail needs to know of the organization's project. */
export interface InvitingProject {
  id: string;
  name: string;
  settings: object;
  redirectUrls: string[];
}

/**
 * Where the invitation mail links to (`settings.invitation_url` first, applicationPageLink). The
 * application's page posts the token to `POST /v1/auth/invitations/accept` with the invitee's session.
 */
export const invitationLink = (project: InvitingProject, token: string): string | null =>
  applicationPageLink(project, 'invitation_url', token);

export interface InvitationRequest {
  /** Row-locked by the caller in `manager`'s transaction. */
  organization: Organization;
  project: InvitingProject;
  email: string;
  role: string;
  /** The inviting user (an admin of the tenant or a member with `org:members:manage`). */
  invitedBy: string;
  actor: Pick<RecordedEvent, 'tenantId' | 'actorType' | 'actorId'>;
  meta: RequestMeta;
}

/**
 * Invitations to an organization, whoever sends them (the admin API or a member): a ≥256-bit
 * single-use token stored as SHA-256, the `invitation.created` event, and the mail enqueued inside
 * the caller's transaction (a queue failure leaves no invitation behind, 503).
 */
@Injectable()
export class OrganizationInvitations {
  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly roles: ProjectRolesRepository,
    private readonly events: EventRecorder,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async issue(manager: EntityManager, r: InvitationRequest): Promise<Invitation> {
    const { organization: org, project, email, role } = r;
    // A custom role's row is locked FOR SHARE: its deletion waits and then sees this invitation.
    if (!(await this.roles.lockAssignable(manager, project.id, role)))
      throw ProblemError.validation({ role: ['is not a role of this project'] });
    const token = randomToken(32);
    const link = invitationLink(project, token);
    if (!link)
      throw new ProblemError('conflict', {
        detail:
          'The project has no invitation_url, default_redirect_url or redirect URL for the invitation link.',
      });
    if (await this.members.isMemberByEmail(manager, org.id, org.projectId, email))
      throw new ProblemError('conflict', {
        detail: 'A user with this email is already a member.',
        errors: { email: ['is already a member'] },
      });
    const now = this.clock.now();
    if (await this.invitations.findOpenForEmail(manager, org.id, email, now))
      throw new ProblemError('conflict', {
        detail: 'A pending invitation for this email exists; revoke it first.',
        errors: { email: ['has a pending invitation'] },
      });
    const created = await this.invitations.create(manager, {
      tenantId: r.actor.tenantId,
      organizationId: org.id,
      email,
      role,
      tokenHash: sha256Hex(token),
      invitedBy: r.invitedBy,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    await this.events.record(manager, {
      ...r.actor,
      projectId: org.projectId,
      meta: r.meta,
      action: 'invitation.created',
      resourceType: 'invitation',
      resourceId: created.id,
      data: {
        invitation: {
          id: created.id,
          organization_id: org.id,
          email,
          role,
          expires_at: created.expiresAt.toISOString(),
        },
      },
    });
    await enqueueMail(
      this.mail,
      {
        template: 'invitation',
        to: email,
        projectId: project.id,
        projectName: project.name,
        variables: {
          link,
          organization_name: org.name,
          role,
          expires_at: created.expiresAt.toISOString(),
        },
      },
      this.config.http.dependencyTimeoutMs,
    );
    return created;
  }
}
