import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { encryptSecret } from '@gatehouse/crypto';
import type { Project } from '@gatehouse/entities';
import {
  MfaFactorsRepository,
  OAuthIdentitiesRepository,
  totpSecretAad,
  UsersRepository,
} from '@gatehouse/identity';
import { LineConflict } from './conflict-policy';
import type { ParsedLine } from './line-parser';

/** The credentials an import line brings: its password hash, TOTP secret (sealed as enrolment seals it), SMS phone and social identities. */
@Injectable()
export class ImportCredentialWriter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly factors: MfaFactorsRepository,
    private readonly identities: OAuthIdentitiesRepository,
  ) {}

  /** The line's credentials, on the user it created or updates (an updated user's lazy migration ends with the hash). */
  async write(
    manager: EntityManager,
    project: Project,
    userId: string,
    line: ParsedLine,
    kind: 'created' | 'updated',
  ): Promise<void> {
    const { dto } = line;
    if (line.hash) {
      await this.users.setPassword(manager, userId, line.hash.hash, line.hash.scheme as never);
      if (kind === 'updated') await this.users.completeMigration(manager, userId);
    }
    const now = new Date();
    if (dto.totp_secret) {
      const secret = dto.totp_secret.replace(/=+$/, '').toUpperCase();
      await this.factors.upsertEnabled(
        manager,
        {
          tenantId: project.tenantId,
          projectId: project.id,
          userId,
          type: 'totp',
          secretEncrypted: encryptSecret(
            this.config.auth.encryptionKey,
            secret,
            totpSecretAad(userId),
          ),
          phoneNumber: null,
        },
        now,
      );
    }
    if (dto.phone_number) {
      await this.factors.upsertEnabled(
        manager,
        {
          tenantId: project.tenantId,
          projectId: project.id,
          userId,
          type: 'sms',
          secretEncrypted: null,
          phoneNumber: dto.phone_number,
        },
        now,
      );
    }
    for (const identity of dto.identities ?? []) {
      const owner = await this.identities.ownerOf(
        manager,
        project.id,
        identity.provider,
        identity.subject,
      );
      if (owner === userId) continue;
      // Thrown inside the line's savepoint: everything the line wrote is undone.
      if (owner)
        throw new LineConflict(
          `The ${identity.provider} identity ${identity.subject} belongs to another user of the project.`,
        );
      await this.identities.create(manager, {
        tenantId: project.tenantId,
        projectId: project.id,
        userId,
        provider: identity.provider,
        subject: identity.subject,
        email: identity.email ?? null,
        lastUsedAt: null,
      });
    }
  }
}
