import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { randomToken, sha256Hex } from '@gatehouse/crypto';
import { EventRecorder, ProjectsRepository, type RequestMeta } from '@gatehouse/identity';
import { Clock, DependencyUnavailableError } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { MailQueue, type MailMessage } from '@gatehouse/queue';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '../common/pagination';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import type { CreateInvitationDto } from './dto/create-invitation.dto';
import { toInvitationResponse } from './invitation.response';
import { InvitationsRepository, OrganizationMembersRepository } from '@gatehouse/organizations';

/** docs/api-contract.md §5: invitation tokens live 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

const orgNotFound = () => new ProblemError('not-found', { detail: 'No such organization.' });

/**
 * Where the invitation mail links to: `settings.invitation_url`, else `settings.default_redirect_url`,
 * else the first registered redirect URL (as the runtime's verification and reset mails do), with
 * `?token=…` appended. The application's page posts the token to `POST /v1/auth/invitations/accept`
 * with the invitee's session. Null when the project has none of these.
 */
export function invitationLink(
  project: { settings: Record<string, unknown>; redirectUrls: string[] },
  token: string,
): string | null {
  const base = [
    project.settings.invitation_url,
    project.settings.default_redirect_url,
    project.redirectUrls[0],
  ].find((v): v is string => typeof v === 'string' && v.length > 0);
  if (!base) return null;
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * Invitations to an organization: a ≥256-bit single-use token, stored as SHA-256, mailed through
 * the mail queue inside the same transaction (a queue failure leaves no invitation behind).
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly projects: ProjectsRepository,
    private readonly mail: MailQueue,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Enqueues the mail, giving up after DEPENDENCY_TIMEOUT_MS (the transaction then rolls back: 503). */
  private async enqueue(message: MailMessage): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DependencyUnavailableError('queue')),
        this.config.http.dependencyTimeoutMs,
      );
    });
    try {
      await Promise.race([this.mail.send(message), timeout]);
    } catch (err) {
      throw err instanceof DependencyUnavailableError
        ? err
        : new DependencyUnavailableError('queue', err);
    } finally {
      clearTimeout(timer);
    }
  }

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
      const token = randomToken(32);
      const link = invitationLink(project, token);
      if (!link) {
        throw new ProblemError('conflict', {
          detail:
            'The project has no invitation_url, default_redirect_url or redirect URL for the invitation link.',
        });
      }
      if (await this.members.isMemberByEmail(manager, org.id, org.projectId, email)) {
        throw new ProblemError('conflict', {
          detail: 'A user with this email is already a member.',
          errors: { email: ['is already a member'] },
        });
      }
      const now = this.clock.now();
      if (await this.invitations.findOpenForEmail(manager, org.id, email, now)) {
        throw new ProblemError('conflict', {
          detail: 'A pending invitation for this email exists; revoke it first.',
          errors: { email: ['has a pending invitation'] },
        });
      }
      const created = await this.invitations.create(manager, {
        tenantId: admin.tenantId,
        organizationId: org.id,
        email,
        role,
        tokenHash: sha256Hex(token),
        invitedBy: admin.userId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: org.projectId,
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
        }),
      );
      await this.enqueue({
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
      });
      return created;
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
