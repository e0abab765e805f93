import { Global, Module } from '@nestjs/common';
import { AccessTokensService } from './access-tokens.service';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiResourcesRepository } from './api-resources/api-resources.repository';
import { ApiKeyUsage } from './api-key-usage.service';
import { EventRecorder } from './event-recorder';
import { LockoutService, SecondFactorLockout } from './lockout.service';
import { OAuthClientsRepository } from './oauth-clients/oauth-clients.repository';
import { PasswordHasher } from './password-hasher';
import { ProvisioningService } from './provisioning.service';
import { ProjectsCache } from './projects-cache.service';
import { ProjectsRepository } from './projects/projects.repository';
import { RefreshChainsRepository } from './sessions/refresh-chains.repository';
import { SessionRevocation } from './sessions/session-revocation';
import { SessionsRepository } from './sessions/sessions.repository';
import { SigningKeysService } from './signing-keys.service';
import { UsersRepository } from './users/users.repository';

const PROVIDERS = [
  AccessTokensService,
  ApiKeysRepository,
  ApiResourcesRepository,
  ApiKeyUsage,
  LockoutService,
  OAuthClientsRepository,
  PasswordHasher,
  ProjectsCache,
  ProjectsRepository,
  ProvisioningService,
  RefreshChainsRepository,
  SecondFactorLockout,
  SessionRevocation,
  SessionsRepository,
  SigningKeysService,
  UsersRepository,
];

/** The audit and outbox recorder: every app that changes data records its events through it (the worker too). */
@Global()
@Module({ providers: [EventRecorder], exports: [EventRecorder] })
export class EventsModule {}

/** Identity services both HTTP apps and the CLI share (tokens, sessions, keys, passwords, lockouts, provisioning), with the recorder. */
@Global()
@Module({ imports: [EventsModule], providers: PROVIDERS, exports: [...PROVIDERS, EventsModule] })
export class IdentityModule {}
