export {
  createGatehouse,
  type AccessTokenClaims,
  type Gatehouse,
  type GatehouseOptions,
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
  assertRecentAuth,
  authenticate,
  tokenFrom,
  type AuthenticateOptions,
  type TokenSources,
} from './requests';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks';
