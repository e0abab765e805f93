import type { StateStore, VerifyCallback } from 'passport-oauth2';
import type { OAuthProvider } from '@gatehouse/identity';
import type { CallbackGuard, ProviderCallPolicy } from '../provider-http';
import type { TransactionStateStore } from './transaction-state.store';

/** passport-oauth2's five-argument verify callback: token response `params` carries the ID token. */
export type ProviderVerify = (
  accessToken: string,
  refreshToken: string,
  params: object,
  profile: unknown,
  done: VerifyCallback,
) => void;

/** Everything a strategy needs for one request of one project. */
export interface StrategyInput {
  provider: OAuthProvider;
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  emailsUrl: string | null;
  scopes: string[];
  callbackUrl: string;
  store: TransactionStateStore;
  guard: CallbackGuard;
  /** Timeout and SSRF mode of every call the strategy makes (token exchange, profile). */
  calls: ProviderCallPolicy;
  verify: ProviderVerify;
}

/** Authorization parameters every strategy adds: the OpenID Connect `nonce` when there is one. */
export function nonceParam(options: unknown): Record<string, string> {
  const nonce = (options as { nonce?: unknown } | undefined)?.nonce;
  return typeof nonce === 'string' ? { nonce } : {};
}

/**
 * The options of the authorization-code flow every strategy shares: the client, its endpoints and
 * scopes, PKCE (S256) and our transaction store (which holds the state, so passport's own session
 * state is never used).
 */
export function codeFlowOptions(input: StrategyInput) {
  return {
    clientID: input.clientId,
    clientSecret: input.clientSecret,
    callbackURL: input.callbackUrl,
    authorizationURL: input.authorizationUrl,
    tokenURL: input.tokenUrl,
    scope: input.scopes,
    pkce: true as const,
    store: input.store as unknown as StateStore,
  };
}
