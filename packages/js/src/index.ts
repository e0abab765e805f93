export {
  createGatehouse,
  GatehouseClient,
  hasPermission,
  type ActiveOrganization,
  type AuthState,
  type CreateOrganizationInput,
  type GatehouseOptions,
  type InviteMemberInput,
  type Me,
  type MfaChallenge,
  type MfaFactor,
  type Organization,
  type OrganizationInvitation,
  type OrganizationMember,
  type OrganizationMemberList,
  type OrganizationRequirement,
  type OrganizationSuggestion,
  type SsoConnection,
  type Passkey,
  type SessionInfo,
  type SignedIn,
  type SignUpInput,
  type TotpSetup,
  type UpdateOrganizationInput,
} from './client';
export { GatehouseError } from './errors';
export type { TabChannel, TabLocks, TabMessage, Tabs } from './tabs';
export type { components, paths } from './schema';
