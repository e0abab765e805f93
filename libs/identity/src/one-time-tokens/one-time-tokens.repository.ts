import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { randomToken, sha256Hex } from '@gatehouse/crypto';
import { OneTimeToken, queryRows } from '@gatehouse/entities';

interface RawToken {
  id: string;
  tenant_id: string;
  project_id: string;
  user_id: string | null;
  purpose: string;
  token_hash: string;
  payload: Record<string, unknown>;
  attempts: number;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
}

function toToken(r: RawToken): OneTimeToken {
  return Object.assign(new OneTimeToken(), {
    id: r.id,
    tenantId: r.tenant_id,
    projectId: r.project_id,
    userId: r.user_id,
    purpose: r.purpose,
    tokenHash: r.token_hash,
    payload: r.payload,
    attempts: r.attempts,
    expiresAt: new Date(r.expires_at),
    consumedAt: r.consumed_at ? new Date(r.consumed_at) : null,
    createdAt: new Date(r.created_at),
  });
}

/**
 * Whether a token that was mailed went to the user's current address. Reset and magic links carry
 * the address they were sent to: once the account's email changes, links in the old mailbox are
 * dead even if one was issued while the change was being confirmed. (A token without an address,
 * issued before links carried one, expires within the hour.)
 */
export function mailedToCurrentAddress(
  token: Pick<OneTimeToken, 'payload'>,
  user: { email: string },
): boolean {
  const to = token.payload?.email;
  return typeof to !== 'string' || to.toLowerCase() === user.email.toLowerCase();
}

export type TokenPurpose =
  'verify-email' | 'email-change' | 'password-reset' | 'magic-link' | 'mfa' | 'impersonation';

/**
 * The only code that queries `one_time_tokens` (the auth runtime's mailed links and MFA tokens,
 * and the worker's purge). Tokens are stored as SHA-256 hashes and bound to a purpose; `consume` is one conditional UPDATE, so exactly one of any number of concurrent
 * requests with the same token wins.
 */
@Injectable()
export class OneTimeTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(
    manager: EntityManager,
    t: Pick<
      OneTimeToken,
      'tenantId' | 'projectId' | 'userId' | 'tokenHash' | 'expiresAt' | 'payload'
    > & { purpose: TokenPurpose },
  ): Promise<OneTimeToken> {
    return manager.getRepository(OneTimeToken).save(manager.getRepository(OneTimeToken).create(t));
  }

  /**
   * Issues a token for a user: 256 random bits, stored as their SHA-256 with purpose, payload and
   * expiry. Returns the raw token, which exists only in what the caller sends out.
   */
  async issue(
    manager: EntityManager,
    user: { id: string; tenantId: string; projectId: string },
    purpose: TokenPurpose,
    expiresAt: Date,
    payload: Record<string, unknown> = {},
  ): Promise<string> {
    const token = randomToken(32);
    await this.create(manager, {
      tenantId: user.tenantId,
      projectId: user.projectId,
      userId: user.id,
      purpose,
      tokenHash: sha256Hex(token),
      payload,
      expiresAt,
    });
    return token;
  }

  /** Looks a token up without using it (reset/validate). */
  findUsable(
    tokenHash: string,
    purpose: TokenPurpose,
    projectId: string,
    now: Date,
  ): Promise<OneTimeToken | null> {
    return this.dataSource
      .getRepository(OneTimeToken)
      .createQueryBuilder('t')
      .where(
        't.token_hash = :tokenHash AND t.purpose = :purpose AND t.project_id = :projectId AND t.consumed_at IS NULL AND t.expires_at > :now',
        { tokenHash, purpose, projectId, now },
      )
      .getOne();
  }

  /** Any token with this hash, used or not (to find where a bad magic link should redirect). */
  findAny(tokenHash: string): Promise<OneTimeToken | null> {
    return this.dataSource.getRepository(OneTimeToken).findOne({ where: { tokenHash } });
  }

  /** Marks the token used and returns it, or null when it is unknown, used, expired or of another purpose (one of `purpose`). */
  async consume(
    manager: EntityManager,
    tokenHash: string,
    purpose: TokenPurpose | TokenPurpose[],
    projectId: string,
    now: Date,
  ): Promise<OneTimeToken | null> {
    const purposes = Array.isArray(purpose) ? purpose : [purpose];
    const r = await manager
      .createQueryBuilder()
      .update(OneTimeToken)
      .set({ consumedAt: now })
      .where(
        'token_hash = :tokenHash AND purpose IN (:...purposes) AND project_id = :projectId AND consumed_at IS NULL AND expires_at > :now',
        { tokenHash, purposes, projectId, now },
      )
      .returning('*')
      .execute();
    const raw = (r.raw as RawToken[])[0];
    return raw ? toToken(raw) : null;
  }

  /** Counts a wrong attempt against a token; returns the new count (0 when the token is unusable). */
  async addAttempt(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<number> {
    const rows = await queryRows<{ attempts: number }>(
      this.dataSource,
      `UPDATE one_time_tokens SET attempts = attempts + 1
        WHERE token_hash = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > $3 RETURNING attempts`,
      [tokenHash, purpose, now],
    );
    return rows[0]?.attempts ?? 0;
  }

  /** Invalidates every unused token of a user and purpose (e.g. older reset links), or of every purpose (`'any'`). */
  async consumeAllOfUser(
    manager: EntityManager,
    userId: string,
    purpose: TokenPurpose | 'any',
    now: Date,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(OneTimeToken)
      .set({ consumedAt: now })
      .where(
        `user_id = :userId AND consumed_at IS NULL${purpose === 'any' ? '' : ' AND purpose = :purpose'}`,
        { userId, purpose },
      )
      .execute();
  }

  /** Deletes up to `limit` one-time tokens that expired before `before` (used or not); returns how many. */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `DELETE FROM one_time_tokens WHERE id IN (SELECT id FROM one_time_tokens WHERE expires_at < $1 LIMIT $2) RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }
}
