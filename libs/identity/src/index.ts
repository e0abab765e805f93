/** Identity services the HTTP apps share: users and their MFA factors, access tokens, sessions and their refresh chains, signing keys, project keys, passwords, lockouts, provisioning, events. */
export {
  AccessTokensService,
  type IssueTokenInput,
  type VerifiedAccessToken,
} from './access-tokens.service';
export {
  accessTokenTtl,
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  MIN_ACCESS_TOKEN_TTL_SECONDS,
} from './access-token-lifetime';
export { EventRecorder, type RecordedEvent, type RequestMeta } from './event-recorder';
export {
  ACTIVITY_COUNTS,
  AuditEventsRepository,
  type AuditCursor,
  type AuditEventRow,
  type AuditFilter,
  type AuditTimeBound,
  type DailyActivityRow,
} from './audit-events.repository';
export { EventsModule, IdentityModule } from './identity.module';
export { createIdentityContext } from './identity-context';
export { PasswordHasher } from './password-hasher';
export { PASSWORD_MAX, PASSWORD_MIN, PasswordPolicy } from './password-policy';
export { PublicJwkResponse } from './public-jwk.response';
export {
  liveSessionCountSql,
  SessionsRepository,
  unrevokedSessionOfUserSql,
  type NewSession,
  type SessionRow,
} from './sessions/sessions.repository';
export { SessionRevocation, type SessionRevoker } from './sessions/session-revocation';
export {
  RefreshChainsRepository,
  type ChainStateRow,
  type RotatedRow,
  type Rotation,
} from './sessions/refresh-chains.repository';
export {
  UsersRepository,
  type ExportRow,
  type MeQuery,
  type MeRow,
  type UserFilter,
  type UserRow,
} from './users/users.repository';
export {
  enabledMfaFactorTypesSql,
  MfaFactorsRepository,
  totpSecretAad,
} from './credentials/mfa-factors.repository';
export { OAuthIdentitiesRepository } from './credentials/oauth-identities.repository';
export { PasskeysRepository } from './credentials/passkeys.repository';
export {
  mailedToCurrentAddress,
  OneTimeTokensRepository,
  type TokenPurpose,
} from './one-time-tokens/one-time-tokens.repository';
export {
  newPublishableKey,
  ProvisioningService,
  type NewProject,
  type TenantSummary,
} from './provisioning.service';
export { activeKidSql, revokedKidSql, SigningKeysService } from './signing-keys.service';
export {
  ProjectsCache,
  projectKeyLookup,
  type ProjectKeyMatch,
  type ResolvedProject,
} from './projects-cache.service';
export { ProjectsRepository, projectsNamedByKeySql } from './projects/projects.repository';
export {
  assertSameOriginForCookie,
  ClientMeta,
  originAllowed,
  originAllowedSql,
  originRefused,
  originToCheck,
  presentedAccessToken,
  REFRESH_COOKIE,
  requestMeta,
  SESSION_COOKIE,
  type PresentedToken,
} from './request-auth';
export {
  LOCK_AFTER_FAILURES,
  LOCK_DURATIONS_MS,
  LockoutService,
  lockoutRefusalReason,
  MFA_LOCK_AFTER_FAILURES,
  normalizeIdentifier,
  SecondFactorLockout,
  type PasswordAttempt,
} from './lockout.service';
export {
  OAUTH_PROVIDERS,
  openOAuthSecret,
  sealOAuthSecret,
  type OAuthProvider,
} from './oauth-secrets';
export { AllowedOrigins, CORS_ORIGIN_SET_KEYS } from './cors/allowed-origins';
export { authOriginOf, projectOrigins } from './cors/project-origins';
export { IsEmailAddress } from './email-address.decorator';
export {
  DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS,
  reauthenticationMaxAgeSeconds,
} from './reauthentication';
export { ApiKeyUsage } from './api-key-usage.service';
export { ApiKeysRepository } from './api-keys/api-keys.repository';
export { DEFAULT_SMS_SETTINGS, projectSmsSettings, type ProjectSmsSettings } from './sms-settings';
export {
  newOAuthClientId,
  newOAuthClientSecret,
  OAuthClientsRepository,
  oauthClientSecretMatches,
  type NewOAuthClient,
  type OAuthClientChanges,
} from './oauth-clients/oauth-clients.repository';
export {
  ID_TOKEN_SIGNING_ALGS,
  isPublicClient,
  OAUTH_CLIENT_AUTH_METHODS,
  OAUTH_CLIENT_DEFAULTS,
  OAUTH_CLIENT_MAX_LIST,
  OAUTH_CLIENT_SCOPES,
  OAUTH_GRANT_TYPES,
  oauthClientRuleErrors,
  type IdTokenSigningAlg,
  type OAuthClientScope,
  type OAuthGrantType,
} from './oauth-clients/oauth-client-rules';
export {
  DEFAULT_OIDC_SETTINGS,
  projectOidcSettings,
  type ProjectOidcSettings,
} from './oidc-settings';
export {
  DEFAULT_PASSWORD_MIGRATION_TIMEOUT_MS,
  openMigrationSecret,
  projectPasswordMigrationSettings,
  sealMigrationSecret,
  type ProjectPasswordMigrationSettings,
} from './password-migration-settings';
export { isLoopbackHost, MAX_URL_LENGTH, parseUrl, redirectUrlProblem } from './redirect-url-rules';
export {
  ApiResourcesRepository,
  type ApiResourceChanges,
  type NewApiResource,
} from './api-resources/api-resources.repository';
export {
  API_RESOURCE_MAX_SCOPES,
  apiResourceIdentifierProblem,
  normalizeApiResourceIdentifier,
  OIDC_STANDARD_SCOPES,
  SCOPE_TOKEN,
} from './api-resources/api-resource-rules';
export {
  INVITATION_TTL_MS,
  invitationLink,
  OrganizationInvitations,
  type InvitationRequest,
  type InvitingProject,
} from './organizations/organization-invitations';
export { InvitationResponse, toInvitationResponse } from './organizations/invitation.response';
export {
  claimSourcesSql,
  renderClaimSources,
  renderTokenClaims,
  RESERVED_CLAIMS,
  TOKEN_CLAIMS_MAX,
  TOKEN_CLAIMS_RENDERED_MAX,
  tokenClaimsProblems,
  validTokenClaims,
  type ClaimSources,
  type ClaimSourcesRow,
} from './token-claims';
export { applicationPageLink, type ApplicationPage } from './application-links';
