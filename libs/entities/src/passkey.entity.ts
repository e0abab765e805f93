import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('passkeys')
export class Passkey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('uuid')
  projectId: string;

  @Column('uuid')
  userId: string;

  /** UNIQUE in the database. */
  @Column('text')
  credentialId: string;

  @Column('bytea')
  publicKey: Buffer;

  /** bigint: node-postgres returns int8 values as strings to avoid precision loss. */
  @Column('bigint', { default: 0 })
  counter: string;

  @Column('jsonb', { default: [] })
  transports: string[];

  @Column('text')
  deviceType: string;

  @Column('boolean', { default: false })
  backedUp: boolean;

  @Column('text')
  name: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
