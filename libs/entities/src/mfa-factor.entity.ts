import { Column, Entity } from 'typeorm';
import { UserScoped } from './scoped-entity';

export type MfaFactorType = 'totp' | 'sms';
export type MfaFactorStatus = 'pending' | 'enabled';

/** UNIQUE (user_id, type) in the database. */
@Entity('mfa_factors')
export class MfaFactor extends UserScoped {
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

  @Column({ type: 'timestamptz', nullable: true })
  enabledAt: Date | null;
}
