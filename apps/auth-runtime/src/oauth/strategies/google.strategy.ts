import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import { installBoundedTransport } from '../provider-http';
import { codeFlowOptions, nonceParam, type StrategyInput } from './strategy-input';

/**
 * Google through passport-google-oauth20 (profile from the OpenID Connect userinfo endpoint), with
 * PKCE (S256), our transaction store, the OIDC `nonce`, the access token in a header (the
 * library's default puts it in the query string) and a bounded HTTP transport. The ID token
 * itself is checked by the verify callback (OAuthService).
 */
export class GoogleOAuthStrategy extends GoogleStrategy {
  constructor(input: StrategyInput) {
    super(
      {
        ...codeFlowOptions(input),
        ...(input.userinfoUrl ? { userProfileURL: input.userinfoUrl } : {}),
      },
      input.verify,
    );
    // The access token goes in the Authorization header, never in the userinfo URL's query.
    this._oauth2.useAuthorizationHeaderforGET(true);
    installBoundedTransport(this._oauth2, input.guard, input.calls);
  }

  override authorizationParams(options: unknown): object {
    return { ...super.authorizationParams(options), ...nonceParam(options) };
  }
}
