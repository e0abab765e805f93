import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { MfaBackupCode, MfaFactor, queryRows } from '@gatehouse/entities';

/** The associated data a TOTP secret is sealed with (bound to its user: a sealed secret copied to another row does not open). */
export const totpSecretAad = (userId: string) => `totp:${userId}`;

/**
 * SQL for a statement of another table that shows a user's second factors in the same round trip
 * (the control plane's user resource, listed or alone): the types of the enabled factors of the
 * user `userRef`, sorted, as a text array (`{}` when none).
 */
export const enabledMfaFactorTypesSql = (userRef: string) =>
  `COALESCE((SELECT array_agg(f.type ORDER BY f.type) FROM mfa_factors f WHERE f.user_id = ${userRef} AND f.status = 'enabled'), '{}')`;

/**
 * The only code that queries `mfa_factors` and `mfa_backup_codes`: the auth runtime's MFA
 * enrolment and challenge, sign-in (which factors a user has) and claims (which end them all); the
 * control plane's user resource reads the enabled factors through the SQL above, and its factor
 * list and removal go through the admin methods below.
 */
@Injectable()
export class MfaFactorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager) {
    return manager ?? this.dataSource.manager;
  }

  /** Enabled factor types plus `backup_code` while unused codes remain (docs/api-contract.md §10). */
  async availableFactors(userId: string, manager?: EntityManager): Promise<string[]> {
    const rows: { type: string }[] = await this.m(manager).query(
      `SELECT type FROM mfa_factors WHERE user_id = $1 AND status = 'enabled'
       UNION ALL
       SELECT 'backup_code' WHERE EXISTS (SELECT 1 FROM mfa_factors WHERE user_id = $1 AND status = 'enabled')
                             AND EXISTS (SELECT 1 FROM mfa_backup_codes WHERE user_id = $1 AND used_at IS NULL)`,
      [userId],
    );
    const order = ['totp', 'sms', 'backup_code'];
    return rows.map((r) => r.type).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }

  /** Whether the user has an enabled second factor. */
  async hasEnabled(userId: string): Promise<boolean> {
    return this.dataSource
      .getRepository(MfaFactor)
      .exists({ where: { userId, status: 'enabled' } });
  }

  find(
    userId: string,
    type: MfaFactor['type'],
    manager?: EntityManager,
  ): Promise<MfaFactor | null> {
    return this.m(manager).getRepository(MfaFactor).findOne({ where: { userId, type } });
  }

  listEnabled(userId: string, manager?: EntityManager): Promise<MfaFactor[]> {
    return this.m(manager)
      .getRepository(MfaFactor)
      .find({ where: { userId, status: 'enabled' } });
  }

  /** Creates or replaces the pending factor of a type (setup can be restarted until enabled). */
  async upsertPending(
    manager: EntityManager,
    f: Pick<
      MfaFactor,
      'tenantId' | 'projectId' | 'userId' | 'type' | 'secretEncrypted' | 'phoneNumber'
    >,
  ): Promise<void> {
    await manager
      .getRepository(MfaFactor)
      .delete({ userId: f.userId, type: f.type, status: 'pending' });
    await manager
      .getRepository(MfaFactor)
      .save(
        manager
          .getRepository(MfaFactor)
          .create({ ...f, status: 'pending', lastUsedStep: null, enabledAt: null }),
      );
  }

  async enable(
    manager: EntityManager,
    userId: string,
    type: MfaFactor['type'],
    at: Date,
    lastUsedStep: string | null,
  ): Promise<boolean> {
    const r = await manager
      .getRepository(MfaFactor)
      .update(
        { userId, type, status: 'pending' },
        { status: 'enabled', enabledAt: at, lastUsedStep },
      );
    return (r.affected ?? 0) > 0;
  }

  /** An imported factor, enabled at once (user import): replaces the user's factor of that type. */
  async upsertEnabled(
    manager: EntityManager,
    f: Pick<
      MfaFactor,
      'tenantId' | 'projectId' | 'userId' | 'type' | 'secretEncrypted' | 'phoneNumber'
    >,
    at: Date,
  ): Promise<void> {
    await manager.getRepository(MfaFactor).delete({ userId: f.userId, type: f.type });
    await manager
      .getRepository(MfaFactor)
      .save(
        manager
          .getRepository(MfaFactor)
          .create({ ...f, status: 'enabled', lastUsedStep: null, enabledAt: at }),
      );
  }

  /** Records a TOTP step as used only if it is newer than the last one: a code works once. */
  async claimTotpStep(userId: string, step: number, manager?: EntityManager): Promise<boolean> {
    const rows = await queryRows(
      this.m(manager),
      `UPDATE mfa_factors SET last_used_step = $2
        WHERE user_id = $1 AND type = 'totp' AND status = 'enabled' AND (last_used_step IS NULL OR last_used_step < $2)
        RETURNING id`,
      [userId, step],
    );
    return rows.length > 0;
  }

  async remove(manager: EntityManager, userId: string, type: MfaFactor['type']): Promise<boolean> {
    const r = await manager.getRepository(MfaFactor).delete({ userId, type });
    return (r.affected ?? 0) > 0;
  }

  async replaceBackupCodes(
    manager: EntityManager,
    userId: string,
    hashes: string[],
  ): Promise<void> {
    await manager.getRepository(MfaBackupCode).delete({ userId });
    if (hashes.length)
      await manager
        .getRepository(MfaBackupCode)
        .insert(hashes.map((codeHash) => ({ userId, codeHash })));
  }

  /** Uses a backup code once; false when unknown or already used. */
  async useBackupCode(
    userId: string,
    codeHash: string,
    at: Date,
    manager?: EntityManager,
  ): Promise<boolean> {
    const rows = await queryRows(
      this.m(manager),
      `UPDATE mfa_backup_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
      [userId, codeHash, at],
    );
    return rows.length > 0;
  }

  /**
   * Deletes every factor of a user (pending set-ups too) and every backup code; returns the types of
   * the factors that were enabled and how many backup codes were still unused.
   */
  async removeAll(
    manager: EntityManager,
    userId: string,
  ): Promise<{ factors: string[]; backupCodes: number }> {
    const factors = await queryRows<{ type: string; status: string }>(
      manager,
      `DELETE FROM mfa_factors WHERE user_id = $1 RETURNING type, status`,
      [userId],
    );
    const codes = await queryRows<{ used_at: Date | null }>(
      manager,
      `DELETE FROM mfa_backup_codes WHERE user_id = $1 RETURNING used_at`,
      [userId],
    );
    return {
      factors: factors
        .filter((f) => f.status === 'enabled')
        .map((f) => f.type)
        .sort(),
      backupCodes: codes.filter((c) => c.used_at === null).length,
    };
  }

  /** Backup codes are a fallback of a factor: none left once the last TOTP or SMS factor is gone; how many there were. */
  async deleteBackupCodesIfNoFactor(manager: EntityManager, userId: string): Promise<number> {
    const rows = await queryRows(
      manager,
      `DELETE FROM mfa_backup_codes WHERE user_id = $1 AND NOT EXISTS (SELECT 1 FROM mfa_factors WHERE user_id = $1 AND status = 'enabled') RETURNING id`,
      [userId],
    );
    return rows.length;
  }

  /**
   * The admin's view (docs/api-contract.md §13): the enabled TOTP and SMS factors, and the backup
   * codes as one entry while there are any (named by the oldest code's id, with the unused count).
   */
  listForAdmin(
    manager: EntityManager,
    userId: string,
  ): Promise<
    {
      id: string;
      type: 'totp' | 'sms' | 'backup_codes';
      phone_number: string | null;
      remaining: number | null;
      created_at: Date;
      last_used_at: Date | null;
    }[]
  > {
    return queryRows(
      manager,
      `SELECT f.id, f.type, f.phone_number, NULL::int AS remaining, f.created_at,
              CASE WHEN f.last_used_step IS NULL THEN NULL ELSE to_timestamp(f.last_used_step * 30) END AS last_used_at
         FROM mfa_factors f WHERE f.user_id = $1 AND f.status = 'enabled'
       UNION ALL
       SELECT (array_agg(c.id ORDER BY c.created_at, c.id))[1], 'backup_codes', NULL,
              (count(*) FILTER (WHERE c.used_at IS NULL))::int, min(c.created_at), max(c.used_at)
         FROM mfa_backup_codes c WHERE c.user_id = $1 HAVING count(*) > 0`,
      [userId],
    );
  }

  /** Deletes an enabled TOTP or SMS factor by id; its type, or null when the user has none with that id. */
  async deleteEnabledById(
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
  async deleteBackupCodeSet(
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
}
