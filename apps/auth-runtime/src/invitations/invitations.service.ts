import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { foreignKeyViolation } from '@gatehouse/entities';
import { sha256Hex } from '@gatehouse/crypto';
import {
  EventRecorder,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { isTokenShape } from '../one-time-tokens/token.dto';
import { InvitationsRepository, OrganizationMembersRepository } from '@gatehouse/organizations';
import type { InvitationAcceptedResponse } from './invitation-accepted.response';
import { activeUser } from '../users/active-user';
import { byUser } from '../users/user-actor';

/**
 * Accepting an invitation (docs/api-contract.md §5): the signed-in user's email must be the invited one
 * (case-insensitive, else 403 and the invitation stays usable); the token is single-use even under
 * concurrent requests; the membership is written in the same transaction.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly users: UsersRepository,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async accept(
    project: ResolvedProject,
    userId: string,
    token: string,
    meta: RequestMeta,
  ): Promise<InvitationAcceptedResponse> {
    const invalid = () =>
      new ProblemError('invalid-token', {
        detail: 'The invitation is invalid, used, revoked or expired.',
      });
    if (!isTokenShape(token)) throw invalid();
    const user = await activeUser(this.users, project.id, userId);
    return this.dataSource
      .transaction(async (manager) => {
        const now = this.clock.now();
        const invitation = await this.invitations.findUsable(
          manager,
          sha256Hex(token),
          project.id,
          now,
        );
        if (!invitation) throw invalid();
        if (invitation.email.trim().toLowerCase() !== user.email.trim().toLowerCase()) {
          throw new ProblemError('forbidden', {
            detail: 'This invitation was sent to another email address.',
          });
        }
        if (!(await this.invitations.markAccepted(manager, invitation.id, now))) throw invalid();
        const membership = await this.members.join(manager, {
          organizationId: invitation.organization_id,
          userId: user.id,
          tenantId: invitation.tenant_id,
          role: invitation.role,
        });
        const base = byUser(invitation.tenant_id, project.id, user.id, meta);
        const organization = { id: invitation.organization_id, name: invitation.organization_name };
        await this.events.record(manager, {
          ...base,
          action: 'invitation.accepted',
          resourceType: 'invitation',
          resourceId: invitation.id,
          data: {
            invitation: {
              id: invitation.id,
              organization_id: organization.id,
              email: invitation.email,
              role: invitation.role,
            },
            user_id: user.id,
          },
        });
        if (membership.inserted || membership.changed) {
          await this.events.record(manager, {
            ...base,
            action: membership.inserted
              ? 'organization.member.added'
              : 'organization.member.updated',
            resourceType: 'organization_member',
            resourceId: user.id,
            data: {
              organization,
              member: { user_id: user.id, email: user.email, role: membership.role },
              via: 'invitation',
            },
          });
        }
        return { organization, role: membership.role };
      })
      .catch((err: unknown) => {
        // The user (or the organization) was deleted while accepting: nothing was written.
        if (foreignKeyViolation(err)) throw invalid();
        throw err;
      });
  }
}
