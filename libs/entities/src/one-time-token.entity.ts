import { Column, Entity } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

@Entity('one_time_tokens')
export class OneTimeToken extends ProjectScoped {
  @Column('uuid', { nullable: true })
  userId: string | null;

  @Column('text')
  purpose: string;

  /** UNIQUE in the database. */
  @Column('text')
  tokenHash: string;

  @Column('jsonb', { default: {} })
  payload: Record<string, unknown>;

  @Column('integer', { default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  consumedAt: Date | null;
}
