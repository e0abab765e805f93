import { Module } from '@nestjs/common';
import { MfaFactorsRepository, OAuthIdentitiesRepository } from '@gatehouse/identity';
import { PasskeysRepository } from './passkeys.repository';

/**
 * The tables of a user's credentials other than the password (second factors and backup codes,
 * social identities, passkeys). Their features use them, and so do sign-in (which factors a user
 * has) and a claim (which ends them all); the repositories live below all of those.
 * MfaFactorsRepository and OAuthIdentitiesRepository come from @gatehouse/identity: the control
 * plane reads `mfa_factors` too (the user resource) and writes both (user import).
 */
const REPOSITORIES = [MfaFactorsRepository, OAuthIdentitiesRepository, PasskeysRepository];

@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class CredentialsModule {}
