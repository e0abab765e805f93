/** `?error=` values of the callback redirect (docs/oauth.md). */
export type OAuthErrorCode =
  | 'access_denied'
  | 'invalid_state'
  | 'account_exists'
  | 'provider_error'
  | 'account_disabled'
  | 'server_error';

/** A sign-in that ends on the application's redirect URL with `?error=code`. */
export class OAuthFailure extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthFailure';
  }
}
