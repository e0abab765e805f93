import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MfaFactorsRepository, PasskeysRepository } from '@gatehouse/identity';

export type AdminFactorType = 'totp' | 'sms' | 'passkey' | 'backup_codes';

/** One second factor of a user as the admin sees it (docs/api-contract.md §13). */
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
 * The admin's view of a user's second factors, across their owners: MfaFactorsRepository (enabled
 * TOTP and SMS, and the backup codes as one entry for the set, named by its oldest code's id) and
 * PasskeysRepository; and their removal one by one or all at once.
 */
@Injectable()
export class UserFactors {
  constructor(
    private readonly mfa: MfaFactorsRepository,
    private readonly passkeys: PasskeysRepository,
  ) {}

  /** Enabled factors, the backup-code set while it has codes, and passkeys; oldest first. */
  async list(manager: EntityManager, userId: string): Promise<UserFactorRow[]> {
    const factors = await this.mfa.listForAdmin(manager, userId);
    const passkeys = await this.passkeys.listForAdmin(manager, userId);
    const rows: UserFactorRow[] = [
      ...factors.map((f) => ({ ...f, name: null })),
      ...passkeys.map((p) => ({
        ...p,
        type: 'passkey' as const,
        phone_number: null,
        remaining: null,
      })),
    ];
    return rows.sort(
      (a, b) =>
        a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }

  /** Deletes an enabled TOTP or SMS factor by id; its type, or null when the user has none with that id. */
  deleteFactor(manager: EntityManager, userId: string, id: string): Promise<'totp' | 'sms' | null> {
    return this.mfa.deleteEnabledById(manager, userId, id);
  }

  /** Deletes every backup code of the user when `id` names their set (any of its codes); how many were unused, or null. */
  deleteBackupCodes(manager: EntityManager, userId: string, id: string): Promise<number | null> {
    return this.mfa.deleteBackupCodeSet(manager, userId, id);
  }

  /** Backup codes are a fallback of a factor: none left once the last TOTP or SMS factor is gone. */
  deleteBackupCodesIfNoFactor(manager: EntityManager, userId: string): Promise<number> {
    return this.mfa.deleteBackupCodesIfNoFactor(manager, userId);
  }

  deletePasskey(
    manager: EntityManager,
    userId: string,
    id: string,
  ): Promise<{ id: string; name: string } | null> {
    return this.passkeys.deleteById(manager, userId, id);
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
    const { factors, backupCodes } = await this.mfa.removeAll(manager, userId);
    const passkeys = await this.passkeys.removeAll(manager, userId);
    return { factors: factors as ('totp' | 'sms')[], backupCodes, passkeys };
  }
}
