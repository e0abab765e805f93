import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Session } from '@gatehouse/entities';

/** The only code of the auth runtime that queries `sessions`. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(manager: EntityManager, s: Pick<Session, 'tenantId' | 'projectId' | 'userId' | 'authMethod' | 'ipAddress' | 'userAgent' | 'expiresAt'> & { now: Date }): Promise<Session> {
    const { now, ...fields } = s;
    return manager.getRepository(Session).save(manager.getRepository(Session).create({ ...fields, lastActiveAt: now }));
  }

  listActive(userId: string, now: Date): Promise<Session[]> {
    return this.dataSource
      .getRepository(Session)
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.revoked_at IS NULL AND s.expires_at > :now', { userId, now })
      .orderBy('s.created_at', 'DESC')
      .getMany();
  }

  /** Revokes one session of the user; returns false when it is not theirs or already revoked. */
  async revokeOwn(manager: EntityManager, userId: string, sessionId: string, reason: string, now: Date): Promise<Session | null> {
    const rows: Session[] = await manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: now, revokeReason: reason })
      .where('id = :sessionId AND user_id = :userId AND revoked_at IS NULL', { sessionId, userId })
      .returning('*')
      .execute()
      .then((r) => r.raw as Session[]);
    return rows[0] ?? null;
  }

  /** Revokes every active session of a user; returns their ids. */
  async revokeAllOfUser(manager: EntityManager, userId: string, reason: string, now: Date): Promise<string[]> {
    const raw: { id: string }[] = await manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: now, revokeReason: reason })
      .where('user_id = :userId AND revoked_at IS NULL', { userId })
      .returning(['id'])
      .execute()
      .then((r) => r.raw as { id: string }[]);
    return raw.map((r) => r.id);
  }

  async revokeById(manager: EntityManager, sessionId: string, reason: string, now: Date): Promise<boolean> {
    const r = await manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: now, revokeReason: reason })
      .where('id = :sessionId AND revoked_at IS NULL', { sessionId })
      .execute();
    return (r.affected ?? 0) > 0;
  }
}
