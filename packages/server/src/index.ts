export {
  createGatehouse,
  type AccessTokenClaims,
  type Gatehouse,
  type GatehouseOptions,
  type OrganizationClaim,
  type ResourceAccessTokenClaims,
  type VerifyResourceTokenOptions,
} from './gatehouse';
export {
  GatehouseAuthError,
  problemFor,
  type AuthProblem,
  type GatehouseAuthErrorCode,
} from './errors';
export {
  assertHas,
  assertRecentAuth,
  authenticate,
  has,
  tokenFrom,
  type AuthenticateOptions,
  type OrganizationRequirement,
  type TokenSources,
} from './requests';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks';
