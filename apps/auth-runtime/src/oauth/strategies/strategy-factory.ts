import type { Strategy as OAuth2Strategy } from 'passport-oauth2';
import { GitHubOAuthStrategy } from './github.strategy';
import { GoogleOAuthStrategy } from './google.strategy';
import { OidcOAuthStrategy } from './oidc.strategy';
import type { StrategyInput } from './strategy-input';

/**
 * The passport strategy of a provider, built for one request from the project's settings:
 * passport-google-oauth20 for Google, passport-github2 for GitHub, passport-oauth2 as an OpenID
 * Connect code flow for Microsoft and Apple (see docs/oauth.md for why not passport-microsoft or
 * passport-apple).
 */
export function createProviderStrategy(input: StrategyInput): OAuth2Strategy {
  switch (input.provider) {
    case 'google':
      return new GoogleOAuthStrategy(input);
    case 'github':
      return new GitHubOAuthStrategy(input);
    case 'microsoft':
    case 'apple':
      return new OidcOAuthStrategy(input);
  }
}
