import { Global, Module } from '@nestjs/common';
import { AccessTokensService } from './access-tokens.service';
import { ApiKeyUsage } from './api-key-usage.service';
import { EventRecorder } from './event-recorder';
import { LockoutService, SecondFactorLockout } from './lockout.service';
import { PasswordHasher } from './password-hasher';
import { ProvisioningService } from './provisioning.service';
import { ProjectsCache } from './projects-cache.service';
import { SigningKeysService } from './signing-keys.service';

const PROVIDERS = [AccessTokensService, ApiKeyUsage, EventRecorder, LockoutService, PasswordHasher, ProjectsCache, ProvisioningService, SecondFactorLockout, SigningKeysService];

/** Identity services both HTTP apps and the CLI share. */
@Global()
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class IdentityModule {}
