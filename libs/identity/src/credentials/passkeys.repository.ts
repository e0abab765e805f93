import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Passkey, queryRows } from '@gatehouse/entities';

/**
 * The only code that queries `passkeys`: the auth runtime's registration and sign-in, claims
 * (which end them all), and the control plane's view of a user's factors (list and removal).
 */
@Injectable()
export class PasskeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Credential ids are unique across every project; the caller checks the project. */
  findByCredentialId(credentialId: string): Promise<Passkey | null> {
    return this.dataSource.getRepository(Passkey).findOne({ where: { credentialId } });
  }

  async credentialIdExists(credentialId: string, manager?: EntityManager): Promise<boolean> {
    return (manager ?? this.dataSource.manager)
      .getRepository(Passkey)
      .exists({ where: { credentialId } });
  }

  /** Whether the user has registered a passkey. */
  hasAny(userId: string): Promise<boolean> {
    return this.dataSource.getRepository(Passkey).exists({ where: { userId } });
  }

  listByUser(userId: string): Promise<Passkey[]> {
    return this.dataSource
      .getRepository(Passkey)
      .find({ where: { userId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  insert(
    manager: EntityManager,
    values: Omit<Passkey, 'id' | 'createdAt' | 'lastUsedAt'>,
  ): Promise<Passkey> {
    return manager
      .getRepository(Passkey)
      .save(manager.getRepository(Passkey).create({ ...values, lastUsedAt: null }));
  }

  /**
   * Stores the counter of a verified assertion only if it moved forward (or both are 0, for
   * authenticators without a counter): two racing assertions cannot both pass a regression check.
   */
  async recordUse(id: string, counter: number, backedUp: boolean, at: Date): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(Passkey)
      .set({ counter: String(counter), backedUp, lastUsedAt: at })
      .where('id = :id AND (counter < :counter OR (:counter = 0 AND counter = 0))', { id, counter })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Deletes every passkey of a user; returns how many there were. */
  async deleteAllOfUser(manager: EntityManager, userId: string): Promise<number> {
    const r = await manager.getRepository(Passkey).delete({ userId });
    return r.affected ?? 0;
  }

  /** Deletes one of the user's own passkeys; null when it is not theirs. */
  async deleteOwn(manager: EntityManager, userId: string, id: string): Promise<Passkey | null> {
    const found = await manager.getRepository(Passkey).findOne({ where: { id, userId } });
    if (!found) return null;
    const r = await manager.getRepository(Passkey).delete({ id, userId });
    return (r.affected ?? 0) > 0 ? found : null;
  }

  /** The user's passkeys as the admin's factor list shows them (docs/api-contract.md §13). */
  listForAdmin(
    manager: EntityManager,
    userId: string,
  ): Promise<{ id: string; name: string; created_at: Date; last_used_at: Date | null }[]> {
    return queryRows(
      manager,
      `SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = $1`,
      [userId],
    );
  }

  /** Deletes one passkey of the user by id; its id and name, or null when it is not theirs. */
  async deleteById(
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

  /** Deletes every passkey of the user; their ids and names, sorted by id. */
  async removeAll(manager: EntityManager, userId: string): Promise<{ id: string; name: string }[]> {
    const rows = await queryRows<{ id: string; name: string }>(
      manager,
      `DELETE FROM passkeys WHERE user_id = $1 RETURNING id, name`,
      [userId],
    );
    return rows.sort((a, b) => a.id.localeCompare(b.id));
  }
}
