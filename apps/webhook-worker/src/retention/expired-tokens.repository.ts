import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '@gatehouse/entities';

/** Housekeeping of `one_time_tokens`. */
@Injectable()
export class ExpiredTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Deletes up to `limit` one-time tokens that expired before `before` (used or not). */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `DELETE FROM one_time_tokens WHERE id IN (SELECT id FROM one_time_tokens WHERE expires_at < $1 LIMIT $2) RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }
}
