import type { EntityManager } from 'typeorm';
import type { User } from '@gatehouse/entities';
import type { EventRecorder, RequestMeta } from '@gatehouse/identity';
import { emailDomain, type DomainJoinRow } from '@gatehouse/organizations';
import { byUser } from './user-actor';

/**
 * Where a user's verified email may enrol them (docs/api-contract.md §14): its domain in their
 * project, or nothing for an unverified email (no auto-join, no suggestion).
 */
export function enrolmentOf(
  user: Pick<User, 'projectId' | 'email' | 'emailVerified'>,
): { projectId: string; domain: string } | undefined {
  const domain = user.emailVerified ? emailDomain(user.email) : null;
  return domain ? { projectId: user.projectId, domain } : undefined;
}

/**
 * `organization.member.added` of each membership a verified domain gave (`via: "domain"`, with the
 * user as actor), as the admin route emits it, in the caller's transaction.
 */
export async function recordDomainJoins(
  events: EventRecorder,
  manager: EntityManager,
  user: Pick<User, 'id' | 'tenantId' | 'projectId' | 'email'>,
  joined: DomainJoinRow[],
  meta: RequestMeta,
  domain: string,
): Promise<void> {
  for (const j of joined)
    await events.record(manager, {
      ...byUser(user.tenantId, user.projectId, user.id, meta),
      action: 'organization.member.added',
      resourceType: 'organization_member',
      resourceId: user.id,
      data: {
        organization: { id: j.organization_id, name: j.organization_name },
        member: { user_id: user.id, email: user.email, role: j.role },
        via: 'domain',
        domain,
      },
    });
}
