/**
 * Organizations' members and invitations, and the project's roles and permissions: the only code
 * that queries `organization_members`, `invitations`, `organization_domains`, `project_roles` and
 * `project_permissions`, and the lock order both apps follow (OrganizationMembersRepository).
 */
export { InvitationsRepository, type UsableInvitation } from './invitations.repository';
export {
  OrganizationMembersRepository,
  organizationsOfUserJsonSql,
  type MemberRow,
  type UserOrganizationRow,
} from './organization-members.repository';
export {
  DOMAIN_ENROLLMENTS,
  DOMAIN_MAX,
  emailDomain,
  normalizeDomain,
  VERIFICATION_PREFIX,
  verificationName,
} from './domains';
export {
  autoJoinSql,
  OrganizationDomainsRepository,
  type DomainJoinRow,
  type DomainSuggestionRow,
} from './organization-domains.repository';
export type { Page } from './page';
export { ProjectPermissionsRepository } from './project-permissions.repository';
export { ProjectRolesRepository, type ProjectRoleChanges } from './project-roles.repository';
export * from './roles';
export {
  OrganizationsRepository,
  patchedSettings,
  type OrganizationFilter,
} from './organizations.repository';
export { randomSuffix, SLUG, SLUG_MAX, slugify } from './slug';
export {
  describeCertificate,
  MAX_METADATA_BYTES,
  parseIdpMetadata,
  SamlMetadataError,
  type SamlIdpMetadata,
} from './saml-metadata';
export {
  SsoConnectionsRepository,
  type NewSsoConnection,
  type SsoConnectionChanges,
} from './sso-connections.repository';
export { ssoUrls } from './sso-urls';
