import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '@gatehouse/platform';
import { AccessTokensService } from '../access-tokens.service';
import { EventRecorder, type RecordedEvent } from '../event-recorder';
import { SessionsRepository } from './sessions.repository';

/**
 * Who ends the sessions, as their `session.revoked` events name them: the user (a sign-out, a
 * password change or reset, an account claim), an admin (a disabling, a deletion, the session
 * routes) or the system (a refresh token replayed, an import), under the user's project.
 */
export type SessionRevoker = Pick<
  RecordedEvent,
  'tenantId' | 'projectId' | 'actorType' | 'actorId' | 'meta'
>;

/**
 * The one path that ends sessions (both HTTP apps and the import). Each method works in the
 * caller's transaction: it revokes the rows, marks the sessions in the shared revocation cache
 * before the caller commits (a cache failure rolls the change back; once committed, their access
 * tokens are refused from the next request of every instance), and records one `session.revoked`
 * per session with `by` as actor and `reason` (a deleted project's sessions are only marked).
 * Nothing ended: nothing marked, nothing recorded.
 */
@Injectable()
export class SessionRevocation {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly tokens: AccessTokensService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /** Ends one session of the user; false when it is not theirs or was revoked already. */
  async revokeOne(
    manager: EntityManager,
    userId: string,
    sessionId: string,
    by: SessionRevoker,
    reason: string,
  ): Promise<boolean> {
    const session = await this.sessions.revokeOwn(
      manager,
      userId,
      sessionId,
      reason,
      this.clock.now(),
    );
    if (!session) return false;
    await this.ended(manager, userId, [sessionId], by, reason);
    return true;
  }

  /** Ends every live session of the user, but `keepSessionId` when given (a password change keeps its own); returns their ids. */
  async revokeAll(
    manager: EntityManager,
    userId: string,
    by: SessionRevoker,
    reason: string,
    keepSessionId?: string,
  ): Promise<string[]> {
    const now = this.clock.now();
    const ids =
      keepSessionId === undefined
        ? await this.sessions.revokeAllOfUser(manager, userId, reason, now)
        : await this.sessions.revokeAllOfUserExcept(manager, userId, keepSessionId, reason, now);
    await this.ended(manager, userId, ids, by, reason);
    return ids;
  }

  /**
   * The user is about to be deleted: their unrevoked sessions go with the row (no revocation is
   * written), but are marked and announced as every revocation is; returns their ids.
   */
  async endWithDeletedUser(
    manager: EntityManager,
    userId: string,
    by: SessionRevoker,
    reason: string,
  ): Promise<string[]> {
    const ids = await this.sessions.unrevokedIds(manager, userId);
    await this.ended(manager, userId, ids, by, reason);
    return ids;
  }

  /**
   * The project is about to be deleted: its unrevoked sessions go with it and are marked in the
   * cache, unannounced (the project's webhooks and audit trail go too; `project.deleted` counts
   * them); returns their ids.
   */
  async endWithDeletedProject(manager: EntityManager, projectId: string): Promise<string[]> {
    const ids = await this.sessions.unrevokedIdsOfProject(manager, projectId);
    await this.tokens.markRevoked(ids);
    return ids;
  }

  private async ended(
    manager: EntityManager,
    userId: string,
    ids: string[],
    by: SessionRevoker,
    reason: string,
  ): Promise<void> {
    if (!ids.length) return;
    await this.tokens.markRevoked(ids);
    await this.events.sessionsRevoked(manager, by, userId, ids, reason);
  }
}
