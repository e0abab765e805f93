import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { queryRows } from '@gatehouse/entities';

export interface SessionRow {
  id: string;
  auth_method: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Date;
  last_active_at: Date;
  expires_at: Date;
}

/** The only code of the control plane that queries `sessions`. */
@Injectable()
export class UserSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The 100 newest active sessions (the detail view is not a paginated list). A session was last
   * active at its last refresh (its chain's `rotated_at`), else at its start.
   */
  listActive(userId: string, now: Date): Promise<SessionRow[]> {
    return this.dataSource.query(
      `SELECT s.id, s.auth_method, s.ip_address, s.user_agent, s.created_at, GREATEST(s.last_active_at, c.rotated_at) AS last_active_at, s.expires_at
         FROM sessions s LEFT JOIN refresh_chains c ON c.session_id = s.id
        WHERE s.user_id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 ORDER BY s.created_at DESC, s.id LIMIT 100`,
      [userId, now],
    );
  }

  /** Revokes every unrevoked session of the user; returns their ids. */
  async revokeAll(manager: EntityManager, userId: string, reason: string, now: Date): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE sessions SET revoked_at = $2, revoke_reason = $3 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`,
      [userId, now, reason],
    );
    return rows.map((r) => r.id);
  }

  async unrevokedIds(manager: EntityManager, userId: string): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(`SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
    return rows.map((r) => r.id);
  }
}
