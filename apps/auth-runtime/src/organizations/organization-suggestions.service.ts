import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { foreignKeyViolation, isId } from '@gatehouse/entities';
import {
  EventRecorder,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import {
  OrganizationDomainsRepository,
  OrganizationMembersRepository,
  OrganizationsRepository,
  type DomainSuggestionRow,
} from '@gatehouse/organizations';
import { ProblemError } from '@gatehouse/problem-details';
import { activeUser } from '../users/active-user';
import { enrolmentOf, recordDomainJoins } from '../users/domain-enrollment';
import type { MyOrganization, OrganizationSuggestionsResponse } from './organization.response';

const noSuggestion = () => new ProblemError('not-found', { detail: 'No such suggestion.' });

/**
 * Organizations a user may join by their verified email's domain (docs/api-contract.md §14): the
 * verified `suggest` domains of the project at that domain, of organizations they are not in. An
 * unverified email gets none. Accepting locks the organization's row first (the lock order of
 * @gatehouse/organizations), so a domain changed or deleted meanwhile is seen.
 */
@Injectable()
export class OrganizationSuggestionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly domains: OrganizationDomainsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly events: EventRecorder,
  ) {}

  async list(project: ResolvedProject, userId: string): Promise<OrganizationSuggestionsResponse> {
    const user = await activeUser(this.users, project.id, userId);
    const enrol = enrolmentOf(user);
    const rows = enrol ? await this.domains.suggestions(project.id, user.id, enrol.domain) : [];
    return { suggestions: rows.map(toSuggestion) };
  }

  /** Joins the organization of a suggestion with the domain's role: 200 the membership, 404 for no such suggestion. */
  async accept(
    project: ResolvedProject,
    userId: string,
    suggestionId: string,
    meta: RequestMeta,
  ): Promise<MyOrganization> {
    const user = await activeUser(this.users, project.id, userId);
    const enrol = enrolmentOf(user);
    if (!enrol || !isId(suggestionId)) throw noSuggestion();
    const seen = (await this.domains.suggestions(project.id, user.id, enrol.domain)).find(
      (s) => s.id === suggestionId,
    );
    if (!seen) throw noSuggestion();
    return this.dataSource
      .transaction(async (manager) => {
        const org = await this.organizations.lockInProject(
          manager,
          project.id,
          seen.organization_id,
        );
        const current = org
          ? (await this.domains.suggestions(project.id, user.id, enrol.domain, manager)).find(
              (s) => s.id === suggestionId,
            )
          : undefined;
        if (!org || !current) throw noSuggestion();
        const added = await this.members.insertIfUserInProject(manager, {
          tenantId: org.tenantId,
          organizationId: org.id,
          projectId: project.id,
          userId: user.id,
          role: current.role,
        });
        if (!added) throw noSuggestion();
        await recordDomainJoins(
          this.events,
          manager,
          user,
          [{ organization_id: org.id, organization_name: org.name, role: added.role }],
          meta,
          enrol.domain,
        );
        const access = (await this.members.access(manager, org.id, user.id))!;
        return { id: org.id, name: org.name, slug: org.slug, ...access };
      })
      .catch((err: unknown) => {
        // The user was deleted while accepting: nothing was written.
        if (foreignKeyViolation(err)) throw noSuggestion();
        throw err;
      });
  }
}

function toSuggestion(s: DomainSuggestionRow) {
  return {
    id: s.id,
    organization: { id: s.organization_id, name: s.organization_name, slug: s.organization_slug },
    domain: s.domain,
    role: s.role,
  };
}
