import { Module } from '@nestjs/common';
import {
  MfaFactorsRepository,
  OAuthIdentitiesRepository,
  PasskeysRepository,
} from '@gatehouse/identity';

/**
 * The tables of a user's credentials other than the password (second factors and backup codes,
 * social identities, passkeys). Their features use them, and so do sign-in (which factors a user
 * has) and a claim (which ends them all); the repositories live below all of those.
 * The repositories come from @gatehouse/identity: the control plane reads `mfa_factors` too (the
 * user resource), writes it and `oauth_identities` (user import), and lists and removes factors
 * and passkeys (the admin's factor list).
 */
const REPOSITORIES = [MfaFactorsRepository, OAuthIdentitiesRepository, PasskeysRepository];

@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class CredentialsModule {}
