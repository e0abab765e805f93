import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  MfaFactorsRepository,
  PasskeysRepository,
  type ResolvedProject,
} from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import { OrganizationMembersRepository } from '@gatehouse/organizations';
import { SessionsService } from '../sessions/sessions.service';
import type { MyOrganizationsResponse } from './organization.response';

/** The signed-in user's organizations (docs/api-contract.md §14): theirs to list and to make active. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly members: OrganizationMembersRepository,
    private readonly sessions: SessionsService,
    private readonly factors: MfaFactorsRepository,
    private readonly passkeys: PasskeysRepository,
  ) {}

  /** Whether the user has a second factor an organization's `require_mfa` accepts: an enabled TOTP or SMS factor, or a passkey. */
  private async hasSecondFactor(userId: string): Promise<boolean> {
    return (await this.factors.hasEnabled(userId)) || (await this.passkeys.hasAny(userId));
  }

  async mine(project: ResolvedProject, userId: string): Promise<MyOrganizationsResponse> {
    const rows = await this.members.claimsOfUser(project.id, userId);
    return {
      organizations: rows.map((r) => ({
        id: r.id,
        name: r.name,
        slug: r.slug,
        role: r.role,
        permissions: r.permissions,
      })),
    };
  }

  /**
   * Sets the session's active organization (a membership of this project's, else 403; one that
   * requires MFA of a user without a second factor, 403 `mfa-required`) and issues its token.
   */
  setActive(
    project: ResolvedProject,
    auth: { sub: string; sid: string; tid: string; adm: boolean },
    organizationId: string | null,
  ) {
    return this.dataSource.transaction(async (manager) => {
      const membership = organizationId
        ? await this.members.lockClaim(manager, project.id, auth.sub, organizationId)
        : null;
      if (membership?.require_mfa && !(await this.hasSecondFactor(auth.sub)))
        throw new ProblemError('mfa-required', {
          detail: 'The organization requires a second factor; enrol one.',
        });
      return this.sessions.activateOrganization(manager, project, auth, organizationId, membership);
    });
  }
}
