import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryPrepared, type PreparedStatement } from '@gatehouse/entities';
import type { ProjectKeyMatch } from '@gatehouse/identity';

/** The state of a presented token that could not be rotated. */
export interface TokenStateRow {
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
}

/** What a successful rotation returns: whose session it is, and the successor's expiry. */
export interface RotatedRow {
  session_id: string;
  user_id: string;
  project_id: string;
  tenant_id: string;
  is_admin: boolean;
  session_expires_at: Date;
  new_expires_at: Date;
  /** The project's `settings.access_token_ttl_seconds`, as stored (validated by the caller). */
  access_token_ttl: unknown;
}

export type Rotation =
  | { kind: 'rotated'; row: RotatedRow }
  /** The key names no project (unknown, or a revoked API key). */
  | { kind: 'unknown-project' }
  /** The request's Origin is not one of the project's allowed origins (the CSRF rule). */
  | { kind: 'origin-refused' }
  /** The token was not rotated: its state (null when it is not a token of this project). */
  | { kind: 'not-rotated'; state: TokenStateRow | null; accessTokenTtl: unknown };

/** The project a presented key names (by publishable key or by a live API key's hash). */
const PROJECT_BY_KEY = (publishable: string, secretHash: string) => `
         SELECT p.id, p.allowed_origins, p.settings FROM projects p WHERE p.publishable_key = ${publishable}
         UNION ALL
         SELECT p.id, p.allowed_origins, p.settings FROM api_keys k JOIN projects p ON p.id = k.project_id
          WHERE k.secret_hash = ${secretHash} AND k.revoked_at IS NULL`;

/**
 * $1 presented hash, $2 successor hash, $3 sealed successor, $4 idle expiry, $5 now, $6 publishable
 * key, $7 successor id, $8 API key secret hash, $9 the Origin to check (null when none). Claims the
 * presented token by updating it only while it is current (a concurrent refresh of the same token
 * waits for this row, then finds it rotated and matches nothing), and only when the key names the
 * session's project and the origin is allowed; adds the successor, and keeps `last_active_at` to
 * the minute. The rotation alone commits asynchronously (see docs/decisions.md).
 */
const ROTATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_rotate',
  text: `WITH proj AS (${PROJECT_BY_KEY('$6', '$8')}
       ), cur AS (
         UPDATE refresh_tokens rt SET rotated_at = $5, successor_id = $7, successor_token_encrypted = $3
           FROM sessions s, users u, proj
          WHERE rt.token_hash = $1 AND rt.rotated_at IS NULL AND rt.expires_at > $5
            AND s.id = rt.session_id AND s.project_id = proj.id AND s.revoked_at IS NULL AND s.expires_at > $5
            AND u.id = s.user_id AND u.status = 'active'
            AND ($9::text IS NULL OR proj.allowed_origins ? $9::text)
         RETURNING rt.session_id, s.user_id, s.project_id, s.tenant_id, u.is_admin, s.expires_at AS session_expires_at,
                   proj.settings -> 'access_token_ttl_seconds' AS access_token_ttl
       ), ins AS (
         INSERT INTO refresh_tokens (id, session_id, token_hash, expires_at)
         SELECT $7, session_id, $2, LEAST($4::timestamptz, session_expires_at) FROM cur
         RETURNING expires_at
       ), touch AS (
         UPDATE sessions SET last_active_at = $5 FROM cur
          WHERE sessions.id = cur.session_id AND sessions.last_active_at < $5::timestamptz - interval '60 seconds'
       )
       SELECT cur.*, ins.expires_at AS new_expires_at,
              set_config('synchronous_commit', 'off', true) AS commit_mode
         FROM cur JOIN ins ON true`,
};

/**
 * $1 presented hash, $2 publishable key, $3 API key secret hash, $4 Origin: after a failed
 * rotation, whether the key names a project and the origin is allowed, and the token's state.
 */
const STATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_state',
  text: `WITH proj AS (${PROJECT_BY_KEY('$2', '$3')})
         SELECT ($4::text IS NULL OR proj.allowed_origins ? $4::text) AS origin_allowed,
                proj.settings -> 'access_token_ttl_seconds' AS access_token_ttl, t.*
           FROM proj LEFT JOIN LATERAL (
                SELECT rt.id AS token_id, rt.session_id, rt.expires_at AS token_expires_at, rt.rotated_at, rt.successor_token_encrypted,
                       s.user_id, s.project_id, s.tenant_id, s.expires_at AS session_expires_at, s.revoked_at AS session_revoked_at,
                       u.status AS user_status, u.is_admin
                  FROM refresh_tokens rt
                  JOIN sessions s ON s.id = rt.session_id
                  JOIN users u ON u.id = s.user_id
                 WHERE rt.token_hash = $1 AND s.project_id = proj.id) t ON true`,
};

/**
 * The only code that queries `refresh_tokens` (but for a session's first token, written with the
 * session by SessionsRepository.create). A rotation is one prepared statement that also resolves
 * the project key and checks the origin, so the hot path costs one round trip to PostgreSQL and
 * none to Redis; only a token that cannot be rotated costs a second.
 */
@Injectable()
export class RefreshTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  async rotate(p: { key: ProjectKeyMatch; origin: string | null; presentedHash: string; successorHash: string; successorSealed: string; idleExpiresAt: Date; now: Date }): Promise<Rotation> {
    const rotated = await queryPrepared<RotatedRow>(this.dataSource, ROTATE_STATEMENT, [
      p.presentedHash, p.successorHash, p.successorSealed, p.idleExpiresAt, p.now, p.key.publishableKey, randomUUID(), p.key.secretHash, p.origin,
    ]);
    if (rotated[0]) return { kind: 'rotated', row: rotated[0] };
    return this.state(p);
  }

  /** Why a token was not rotated: the key, the origin, or the token's own state. */
  async state(p: { key: ProjectKeyMatch; origin: string | null; presentedHash: string }): Promise<Exclude<Rotation, { kind: 'rotated' }>> {
    const [state] = await queryPrepared<Partial<TokenStateRow> & { origin_allowed: boolean; access_token_ttl: unknown }>(this.dataSource, STATE_STATEMENT, [
      p.presentedHash, p.key.publishableKey, p.key.secretHash, p.origin,
    ]);
    if (!state) return { kind: 'unknown-project' };
    if (!state.origin_allowed) return { kind: 'origin-refused' };
    const { origin_allowed: _allowed, access_token_ttl: accessTokenTtl, ...token } = state;
    return { kind: 'not-rotated', state: token.token_id ? (token as TokenStateRow) : null, accessTokenTtl };
  }
}
