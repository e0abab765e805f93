import { Module } from '@nestjs/common';
import { MfaFactorsRepository } from '@gatehouse/identity';
import { OAuthIdentitiesRepository } from './oauth-identities.repository';
import { PasskeysRepository } from './passkeys.repository';

/**
 * The tables of a user's credentials other than the password (second factors and backup codes,
 * social identities, passkeys). Their features use them, and so do sign-in (which factors a user
 * has) and a claim (which ends them all); the repositories live below all of those.
 * MfaFactorsRepository comes from @gatehouse/identity: the control plane's user resource reads
 * `mfa_factors` too, through the SQL it exports.
 */
const REPOSITORIES = [MfaFactorsRepository, OAuthIdentitiesRepository, PasskeysRepository];

@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class CredentialsModule {}
