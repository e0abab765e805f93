import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '@gatehouse/entities';

/** Housekeeping of `sessions` (and, by cascade, their refresh chains). */
@Injectable()
export class ExpiredSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Deletes up to `limit` sessions that expired, or were revoked, before `before`. */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions WHERE expires_at < $1 OR revoked_at < $1 LIMIT $2)
       RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }
}
