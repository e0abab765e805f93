import { Strategy as OAuth2Strategy } from 'passport-oauth2';
import { installBoundedTransport } from '../provider-http';
import { codeFlowOptions, nonceParam, type StrategyInput } from './strategy-input';

/**
 * Microsoft and Apple: passport-oauth2 as a plain OpenID Connect code flow. The user is read from
 * the ID token the verify callback validates (issuer, audience, nonce, signature), so no profile
 * call is made here. Apple needs `response_mode=form_post` when it is asked for name or email; its
 * client secret is the ES256 JWT the caller passes as `clientSecret`.
 */
export class OidcOAuthStrategy extends OAuth2Strategy {
  private readonly formPost: boolean;

  constructor(input: StrategyInput) {
    super(
      {
        ...codeFlowOptions(input),
        skipUserProfile: true,
      },
      input.verify,
    );
    this.name = input.provider;
    this.formPost = input.provider === 'apple';
    installBoundedTransport(this._oauth2, input.guard, input.calls);
  }

  override authorizationParams(options: unknown): object {
    return { ...nonceParam(options), ...(this.formPost ? { response_mode: 'form_post' } : {}) };
  }
}
