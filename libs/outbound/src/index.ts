/** Outbound HTTP to URLs that admins configure (OAuth providers, webhooks), safe from server-side request forgery. */
export {
  OAUTH_PRIVATE_ADDRESS_MESSAGE,
  privateAddressMessage,
  refusedAddress,
  refusedHostname,
  refusedUrlHost,
  urlHost,
  WEBHOOK_PRIVATE_ADDRESS_MESSAGE,
} from './address-policy';
export {
  assertSendableHost,
  guardedLookup,
  outboundTarget,
  PrivateAddressError,
  type OutboundTarget,
} from './guarded-connection';
export {
  OutboundHttpError,
  outboundRequest,
  type OutboundLimits,
  type OutboundRequestInit,
  type OutboundResponse,
} from './outbound-request';
