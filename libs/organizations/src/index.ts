/** Organizations' members and invitations: the only code that queries `organization_members` and `invitations`, and the lock order both apps follow (OrganizationMembersRepository). */
export { InvitationsRepository, type UsableInvitation } from './invitations.repository';
export {
  OrganizationMembersRepository,
  organizationsOfUserJsonSql,
  type MemberRow,
  type UserOrganizationRow,
} from './organization-members.repository';
export type { Page } from './page';
