import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OAuthIdentity, queryRows } from '@gatehouse/entities';

/** The only code that queries `oauth_identities` — unique per (project, provider, subject). */
@Injectable()
export class OAuthIdentitiesRepository {
  find(
    manager: EntityManager,
    projectId: string,
    provider: string,
    subject: string,
  ): Promise<OAuthIdentity | null> {
    return manager
      .getRepository(OAuthIdentity)
      .findOne({ where: { projectId, provider, subject } });
  }

  create(
    manager: EntityManager,
    identity: Pick<
      OAuthIdentity,
      'tenantId' | 'projectId' | 'userId' | 'provider' | 'subject' | 'email' | 'lastUsedAt'
    >,
  ): Promise<OAuthIdentity> {
    return manager
      .getRepository(OAuthIdentity)
      .save(manager.getRepository(OAuthIdentity).create(identity));
  }

  /** Deletes every social identity of a user but `keepId`'s; returns what was removed. */
  async deleteAllOfUser(
    manager: EntityManager,
    userId: string,
    keepId: string | null,
  ): Promise<{ provider: string; subject: string }[]> {
    const rows = await queryRows<{ provider: string; subject: string }>(
      manager,
      `DELETE FROM oauth_identities WHERE user_id = $1 AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING provider, subject`,
      [userId, keepId],
    );
    return rows
      .map((r) => ({ provider: r.provider, subject: r.subject }))
      .sort((a, b) => a.provider.localeCompare(b.provider) || a.subject.localeCompare(b.subject));
  }

  /** Whose an identity is in the project (user import: one that is another user's is a conflict). */
  async ownerOf(
    manager: EntityManager,
    projectId: string,
    provider: string,
    subject: string,
  ): Promise<string | null> {
    const rows = await queryRows<{ user_id: string }>(
      manager,
      `SELECT user_id FROM oauth_identities WHERE project_id = $1 AND provider = $2 AND subject = $3`,
      [projectId, provider, subject],
    );
    return rows[0]?.user_id ?? null;
  }

  async touch(manager: EntityManager, id: string, email: string | null, at: Date): Promise<void> {
    await manager
      .getRepository(OAuthIdentity)
      .update({ id }, { lastUsedAt: at, ...(email !== null ? { email } : {}) });
  }
}
