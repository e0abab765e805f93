import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '@gatehouse/entities';

export type AdminFactorType = 'totp' | 'sms' | 'passkey' | 'backup_codes';

/** One second factor of a user as the admin sees it (CONTRACT §13). */
export interface UserFactorRow {
  id: string;
  type: AdminFactorType;
  name: string | null;
  phone_number: string | null;
  remaining: number | null;
  created_at: Date;
  last_used_at: Date | null;
}

/**
 * The admin's view of a user's second factors, across `mfa_factors` (enabled TOTP and SMS),
 * `mfa_backup_codes` (one entry for the set, named by its oldest code's id) and `passkeys`, and
 * their removal one by one or all at once. The runtime's own enrolment goes through
 * MfaFactorsRepository and PasskeysRepository; these statements only read and delete.
 */
@Injectable()
export class UserFactorsRepository {
  /** Enabled factors, the backup-code set while it has codes, and passkeys; oldest first. */
  async list(manager: EntityManager, userId: string): Promise<UserFactorRow[]> {
    return queryRows<UserFactorRow>(
      manager,
      `SELECT * FROM (
         SELECT f.id, f.type, NULL::text AS name, f.phone_number, NULL::int AS remaining, f.created_at,
                CASE WHEN f.last_used_step IS NULL THEN NULL ELSE to_timestamp(f.last_used_step * 30) END AS last_used_at
           FROM mfa_factors f WHERE f.user_id = $1 AND f.status = 'enabled'
         UNION ALL
         SELECT (array_agg(c.id ORDER BY c.created_at, c.id))[1], 'backup_codes', NULL, NULL,
                (count(*) FILTER (WHERE c.used_at IS NULL))::int, min(c.created_at), max(c.used_at)
           FROM mfa_backup_codes c WHERE c.user_id = $1 HAVING count(*) > 0
         UNION ALL
         SELECT p.id, 'passkey', p.name, NULL, NULL, p.created_at, p.last_used_at FROM passkeys p WHERE p.user_id = $1
       ) f ORDER BY f.created_at, f.id`,
      [userId],
    );
  }

  /** Deletes an enabled TOTP or SMS factor by id; its type, or null when the user has none with that id. */
  async deleteFactor(
    manager: EntityManager,
    userId: string,
    id: string,
  ): Promise<'totp' | 'sms' | null> {
    const rows = await queryRows<{ type: 'totp' | 'sms' }>(
      manager,
      `DELETE FROM mfa_factors WHERE id = $1 AND user_id = $2 AND status = 'enabled' RETURNING type`,
      [id, userId],
    );
    return rows[0]?.type ?? null;
  }

  /** Deletes every backup code of the user when `id` names their set (any of its codes); how many were unused, or null. */
  async deleteBackupCodes(
    manager: EntityManager,
    userId: string,
    id: string,
  ): Promise<number | null> {
    const named = await queryRows(
      manager,
      `SELECT 1 FROM mfa_backup_codes WHERE id = $1 AND user_id = $2`,
      [id, userId],
    );
    if (!named.length) return null;
    const rows = await queryRows<{ used_at: Date | null }>(
      manager,
      `DELETE FROM mfa_backup_codes WHERE user_id = $1 RETURNING used_at`,
      [userId],
    );
    return rows.filter((r) => r.used_at === null).length;
  }

  /** Backup codes are a fallback of a factor: none left once the last TOTP or SMS factor is gone. */
  async deleteBackupCodesIfNoFactor(manager: EntityManager, userId: string): Promise<number> {
    const rows = await queryRows<{ used_at: Date | null }>(
      manager,
      `DELETE FROM mfa_backup_codes WHERE user_id = $1 AND NOT EXISTS (SELECT 1 FROM mfa_factors WHERE user_id = $1 AND status = 'enabled') RETURNING used_at`,
      [userId],
    );
    return rows.length;
  }

  async deletePasskey(
    manager: EntityManager,
    userId: string,
    id: string,
  ): Promise<{ id: string; name: string } | null> {
    const rows = await queryRows<{ id: string; name: string }>(
      manager,
      `DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING id, name`,
      [id, userId],
    );
    return rows[0] ?? null;
  }

  /** "Reset MFA": every factor (pending set-ups too), backup code and passkey of the user. */
  async deleteAll(
    manager: EntityManager,
    userId: string,
  ): Promise<{
    factors: ('totp' | 'sms')[];
    backupCodes: number;
    passkeys: { id: string; name: string }[];
  }> {
    const factors = await queryRows<{ type: 'totp' | 'sms'; status: string }>(
      manager,
      `DELETE FROM mfa_factors WHERE user_id = $1 RETURNING type, status`,
      [userId],
    );
    const codes = await queryRows<{ used_at: Date | null }>(
      manager,
      `DELETE FROM mfa_backup_codes WHERE user_id = $1 RETURNING used_at`,
      [userId],
    );
    const passkeys = await queryRows<{ id: string; name: string }>(
      manager,
      `DELETE FROM passkeys WHERE user_id = $1 RETURNING id, name`,
      [userId],
    );
    return {
      factors: factors
        .filter((f) => f.status === 'enabled')
        .map((f) => f.type)
        .sort(),
      backupCodes: codes.filter((c) => c.used_at === null).length,
      passkeys: passkeys.sort((a, b) => a.id.localeCompare(b.id)),
    };
  }
}
