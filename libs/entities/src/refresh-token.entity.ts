import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('refresh_tokens')
export class RefreshToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  sessionId: string;

  /** UNIQUE in the database. */
  @Column('text')
  tokenHash: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;

  /** The token that replaced this one (a record of the chain; no foreign key, see migration RefreshChainLink). */
  @Column('uuid', { nullable: true })
  successorId: string | null;

  @Column('text', { nullable: true })
  successorTokenEncrypted: string | null;
}
