import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

export type UserStatus = 'active' | 'disabled';

@Entity('users')
export class User extends ProjectScoped {
  /** Unique per project, case-insensitively (`lower(email)` index in the migration). */
  @Column('text')
  email: string;

  @Column('boolean', { default: false })
  emailVerified: boolean;

  /** Unique per project, case-insensitively, when set. */
  @Column('text', { nullable: true })
  username: string | null;

  @Column('text', { default: 'active' })
  status: UserStatus;

  @Column('boolean', { default: false })
  isAdmin: boolean;

  @Column('jsonb', { default: {} })
  metadata: Record<string, unknown>;

  /** The user's id in the system they were imported from (unique per project; makes a repeated import idempotent). */
  @Column('text', { nullable: true })
  externalId: string | null;

  /** Imported without a password hash: the first password sign-in asks the project's old system (lazy migration). */
  @Column('boolean', { default: false })
  needsMigration: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;

  /**
   * Bumped by every change that ends the account's credentials (a claim, a password reset or
   * change, disabling). A sign-in remembers the value it read with the credential it checked; its
   * session is written only while the value is unchanged (SessionsRepository).
   */
  @Column('integer', { default: 0 })
  securityStamp: number;
}
