import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `refresh_tokens.successor_id` stays as a record of the rotation chain but loses its foreign key:
 * checking it on every rotation locked the new row and cost PostgreSQL about a fifth of a refresh
 * (measured in bench/). Nothing follows the link; a token and its successor always belong to the
 * same session and are deleted with it.
 */
export class RefreshChainLink1795306400000 implements MigrationInterface {
  name = 'RefreshChainLink1795306400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE refresh_tokens DROP CONSTRAINT IF EXISTS refresh_tokens_successor_id_fkey`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE refresh_tokens t SET successor_id = NULL
                    WHERE successor_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM refresh_tokens s WHERE s.id = t.successor_id)`);
    await q.query(`ALTER TABLE refresh_tokens ADD CONSTRAINT refresh_tokens_successor_id_fkey
                     FOREIGN KEY (successor_id) REFERENCES refresh_tokens(id) ON DELETE SET NULL`);
  }
}
