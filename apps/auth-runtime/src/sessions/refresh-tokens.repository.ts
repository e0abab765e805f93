import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryPrepared, type PreparedStatement } from '@gatehouse/entities';

export interface RotationRow {
  token_id: string;
  session_id: string;
  token_expires_at: Date;
  rotated_at: Date | null;
  successor_token_encrypted: string | null;
  user_id: string;
  project_id: string;
  tenant_id: string;
  session_expires_at: Date;
  session_revoked_at: Date | null;
  user_status: string;
  is_admin: boolean;
  new_token_id: string | null;
  new_expires_at: Date | null;
}

/**
 * $1 presented hash, $2 successor hash, $3 sealed successor, $4 idle expiry, $5 now, $6 project,
 * $7 successor id. Claims the presented token by updating it only while it is current (a concurrent
 * refresh of the same token waits for this row, then finds it rotated and matches nothing), adds
 * the successor, and keeps `last_active_at` to the minute. The rotation alone commits
 * asynchronously (see docs/decisions.md).
 */
const ROTATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_rotate',
  text: `WITH cur AS (
         UPDATE refresh_tokens rt SET rotated_at = $5, successor_id = $7, successor_token_encrypted = $3
           FROM sessions s, users u
          WHERE rt.token_hash = $1 AND rt.rotated_at IS NULL AND rt.expires_at > $5
            AND s.id = rt.session_id AND s.project_id = $6 AND s.revoked_at IS NULL AND s.expires_at > $5
            AND u.id = s.user_id AND u.status = 'active'
         RETURNING rt.id AS token_id, rt.session_id, rt.expires_at AS token_expires_at, NULL::timestamptz AS rotated_at,
                   NULL::text AS successor_token_encrypted, s.user_id, s.project_id, s.tenant_id,
                   s.expires_at AS session_expires_at, s.revoked_at AS session_revoked_at, u.status AS user_status, u.is_admin
       ), ins AS (
         INSERT INTO refresh_tokens (id, session_id, token_hash, expires_at)
         SELECT $7, session_id, $2, LEAST($4::timestamptz, session_expires_at) FROM cur
         RETURNING id, expires_at
       ), touch AS (
         UPDATE sessions SET last_active_at = $5 FROM cur
          WHERE sessions.id = cur.session_id AND sessions.last_active_at < $5::timestamptz - interval '60 seconds'
       )
       SELECT cur.*, ins.id AS new_token_id, ins.expires_at AS new_expires_at,
              set_config('synchronous_commit', 'off', true) AS commit_mode
         FROM cur JOIN ins ON true`,
};

/** $1 presented hash, $2 project: the state of a token that could not be rotated. */
const STATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_state',
  text: `SELECT rt.id AS token_id, rt.session_id, rt.expires_at AS token_expires_at, rt.rotated_at, rt.successor_token_encrypted,
                s.user_id, s.project_id, s.tenant_id, s.expires_at AS session_expires_at, s.revoked_at AS session_revoked_at,
                u.status AS user_status, u.is_admin, NULL::uuid AS new_token_id, NULL::timestamptz AS new_expires_at
           FROM refresh_tokens rt
           JOIN sessions s ON s.id = rt.session_id
           JOIN users u ON u.id = s.user_id
          WHERE rt.token_hash = $1 AND s.project_id = $2`,
};

/**
 * The only code that queries `refresh_tokens` (but for a session's first token, written with the
 * session by SessionsRepository.create). A rotation is one prepared statement, so the hot path
 * costs one round trip to PostgreSQL; only a token that cannot be rotated costs a second.
 */
@Injectable()
export class RefreshTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Rotates the presented token: the new row on success (`new_token_id` set); otherwise the
   * token's state (unknown, expired, of a revoked session, already rotated), read by a second
   * statement, for the caller to tell a concurrent refresh within the grace from a replay.
   */
  async rotate(p: { projectId: string; presentedHash: string; successorHash: string; successorSealed: string; idleExpiresAt: Date; now: Date }): Promise<RotationRow | null> {
    const rotated = await queryPrepared<RotationRow>(this.dataSource, ROTATE_STATEMENT, [
      p.presentedHash, p.successorHash, p.successorSealed, p.idleExpiresAt, p.now, p.projectId, randomUUID(),
    ]);
    if (rotated[0]) return rotated[0];
    const state = await queryPrepared<RotationRow>(this.dataSource, STATE_STATEMENT, [p.presentedHash, p.projectId]);
    return state[0] ?? null;
  }
}
