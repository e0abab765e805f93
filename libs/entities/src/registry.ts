import { ApiKey } from './api-key.entity';
import { ApiResource } from './api-resource.entity';
import { ProjectPermission } from './project-permission.entity';
import { ProjectRole } from './project-role.entity';
import { AuditEvent } from './audit-event.entity';
import { Invitation } from './invitation.entity';
import { MfaBackupCode } from './mfa-backup-code.entity';
import { MfaFactor } from './mfa-factor.entity';
import { CreateSchema1795305600000 } from './migrations/1795305600000-CreateSchema';
import { WebhookDeliveryScheduling1795306000000 } from './migrations/1795306000000-WebhookDeliveryScheduling';
import { WebhookDeliveryLeases1795306100000 } from './migrations/1795306100000-WebhookDeliveryLeases';
import { WebhookDeliveryHotPath1795306200000 } from './migrations/1795306200000-WebhookDeliveryHotPath';
import { RetentionIndexes1795306300000 } from './migrations/1795306300000-RetentionIndexes';
import { RefreshChainLink1795306400000 } from './migrations/1795306400000-RefreshChainLink';
import { SessionAuthTime1795306700000 } from './migrations/1795306700000-SessionAuthTime';
import { SigningKeyRevocation1795306800000 } from './migrations/1795306800000-SigningKeyRevocation';
import { UserSecurityStamp1795306900000 } from './migrations/1795306900000-UserSecurityStamp';
import { SessionCountIndex1795306500000 } from './migrations/1795306500000-SessionCountIndex';
import { RefreshChains1795306600000 } from './migrations/1795306600000-RefreshChains';
import { CoverAuditActionIndex1795307000000 } from './migrations/1795307000000-CoverAuditActionIndex';
import { OidcProvider1795307100000 } from './migrations/1795307100000-OidcProvider';
import { SigningKeyAlgorithms1795307200000 } from './migrations/1795307200000-SigningKeyAlgorithms';
import { UserImport1795307300000 } from './migrations/1795307300000-UserImport';
import { PasswordMigration1795307400000 } from './migrations/1795307400000-PasswordMigration';
import { OAuthClientTrust1795307600000 } from './migrations/1795307600000-OAuthClientTrust';
import { AddOAuthClientRequirements1795307900000 } from './migrations/1795307900000-AddOAuthClientRequirements';
import { CreateApiResources1795307850000 } from './migrations/1795307850000-CreateApiResources';
import { ProjectRoles1795308000000 } from './migrations/1795308000000-ProjectRoles';
import { ActiveOrganization1795308100000 } from './migrations/1795308100000-ActiveOrganization';
import { OrganizationSettings1795308200000 } from './migrations/1795308200000-OrganizationSettings';
import { OrganizationDomains1795308300000 } from './migrations/1795308300000-OrganizationDomains';
import { OAuthGrantOrganization1795308400000 } from './migrations/1795308400000-OAuthGrantOrganization';
import { SsoConnections1795308500000 } from './migrations/1795308500000-SsoConnections';
import { SupportOperations1795307750000 } from './migrations/1795307750000-SupportOperations';
import { OAuthClient } from './oauth-client.entity';
import { OAuthGrant } from './oauth-grant.entity';
import { OAuthIdentity } from './oauth-identity.entity';
import { OAuthTransaction } from './oauth-transaction.entity';
import { OneTimeToken } from './one-time-token.entity';
import { OrganizationDomain } from './organization-domain.entity';
import { OrganizationMember } from './organization-member.entity';
import { Organization } from './organization.entity';
import { OutboxEvent } from './outbox-event.entity';
import { Passkey } from './passkey.entity';
import { PasswordCredential } from './password-credential.entity';
import { Project } from './project.entity';
import { RefreshChain } from './refresh-chain.entity';
import { Session } from './session.entity';
import { SigningKey } from './signing-key.entity';
import { SsoConnection } from './sso-connection.entity';
import { Tenant } from './tenant.entity';
import { User } from './user.entity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { Webhook } from './webhook.entity';

/** Every entity class, in migration (dependency) order. */
export const ENTITIES = [
  Tenant,
  Project,
  ApiKey,
  SigningKey,
  User,
  PasswordCredential,
  Session,
  RefreshChain,
  OneTimeToken,
  MfaFactor,
  MfaBackupCode,
  Passkey,
  OAuthIdentity,
  OAuthTransaction,
  OAuthClient,
  OAuthGrant,
  ApiResource,
  ProjectPermission,
  ProjectRole,
  Organization,
  OrganizationMember,
  OrganizationDomain,
  SsoConnection,
  Invitation,
  Webhook,
  OutboxEvent,
  WebhookDelivery,
  AuditEvent,
];

/** Every migration class, oldest first. Migrations are the source of truth for the schema. */
export const MIGRATIONS = [
  CreateSchema1795305600000,
  WebhookDeliveryScheduling1795306000000,
  WebhookDeliveryLeases1795306100000,
  WebhookDeliveryHotPath1795306200000,
  RetentionIndexes1795306300000,
  RefreshChainLink1795306400000,
  SessionCountIndex1795306500000,
  RefreshChains1795306600000,
  SessionAuthTime1795306700000,
  SigningKeyRevocation1795306800000,
  UserSecurityStamp1795306900000,
  CoverAuditActionIndex1795307000000,
  OidcProvider1795307100000,
  SigningKeyAlgorithms1795307200000,
  UserImport1795307300000,
  PasswordMigration1795307400000,
  OAuthClientTrust1795307600000,
  SupportOperations1795307750000,
  CreateApiResources1795307850000,
  AddOAuthClientRequirements1795307900000,
  ProjectRoles1795308000000,
  ActiveOrganization1795308100000,
  OrganizationSettings1795308200000,
  OrganizationDomains1795308300000,
  OAuthGrantOrganization1795308400000,
  SsoConnections1795308500000,
];
