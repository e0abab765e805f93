import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type MfaFactorType = 'totp' | 'sms';
export type MfaFactorStatus = 'pending' | 'enabled';

/** UNIQUE (user_id, type) in the database. */
@Entity('mfa_factors')
export class MfaFactor {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('uuid')
  projectId: string;

  @Column('uuid')
  userId: string;

  @Column('text')
  type: MfaFactorType;

  @Column('text')
  status: MfaFactorStatus;

  @Column('text', { nullable: true })
  secretEncrypted: string | null;

  @Column('text', { nullable: true })
  phoneNumber: string | null;

  /** bigint: node-postgres returns int8 values as strings to avoid precision loss. */
  @Column('bigint', { nullable: true })
  lastUsedStep: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  enabledAt: Date | null;
}
