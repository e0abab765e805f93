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

/** $1 presented hash, $2 successor hash, $3 sealed successor, $4 idle expiry, $5 now, $6 project. */
const ROTATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_rotate',
  text: `WITH cur AS (
         SELECT rt.id AS token_id, rt.session_id, rt.expires_at AS token_expires_at, rt.rotated_at,
                rt.successor_token_encrypted,
                s.user_id, s.project_id, s.tenant_id, s.expires_at AS session_expires_at,
                s.revoked_at AS session_revoked_at, u.status AS user_status, u.is_admin
           FROM refresh_tokens rt
           JOIN sessions s ON s.id = rt.session_id
           JOIN users u ON u.id = s.user_id
          WHERE rt.token_hash = $1 AND s.project_id = $6
          FOR UPDATE OF rt
       ), ins AS (
         INSERT INTO refresh_tokens (session_id, token_hash, expires_at)
         SELECT session_id, $2, LEAST($4::timestamptz, session_expires_at) FROM cur
          WHERE rotated_at IS NULL AND session_revoked_at IS NULL AND user_status = 'active'
            AND token_expires_at > $5 AND session_expires_at > $5
         RETURNING id, session_id, expires_at
       ), old AS (
         UPDATE refresh_tokens SET rotated_at = $5, successor_id = ins.id, successor_token_encrypted = $3
           FROM ins WHERE refresh_tokens.id = (SELECT token_id FROM cur)
         RETURNING refresh_tokens.id
       ), touch AS (
         -- last_active_at is kept to the minute: one row write less on most refreshes
         UPDATE sessions SET last_active_at = $5 FROM ins
          WHERE sessions.id = ins.session_id AND sessions.last_active_at < $5::timestamptz - interval '60 seconds'
         RETURNING sessions.id
       )
       SELECT cur.*, ins.id AS new_token_id, ins.expires_at AS new_expires_at,
              set_config('synchronous_commit', 'off', true) AS commit_mode
         FROM cur LEFT JOIN ins ON true`,
};

/**
 * The only code that queries `refresh_tokens` (but for a session's first token, written with the
 * session by SessionsRepository.create). Rotation is one SQL statement: it locks the
 * presented token, inserts the successor only when the token is current and the session usable,
 * and records the successor on the old row, so the hot path costs one round trip to Postgres
 * (a prepared statement: planned once per connection).
 */
@Injectable()
export class RefreshTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  async rotate(p: { projectId: string; presentedHash: string; successorHash: string; successorSealed: string; idleExpiresAt: Date; now: Date }): Promise<RotationRow | null> {
    const rows = await queryPrepared<RotationRow>(this.dataSource, ROTATE_STATEMENT, [p.presentedHash, p.successorHash, p.successorSealed, p.idleExpiresAt, p.now, p.projectId]);
    return rows[0] ?? null;
  }
}
