import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PasswordScheme } from '@gatehouse/crypto';

export type { PasswordScheme };

@Entity('password_credentials')
export class PasswordCredential {
  /** Primary key and foreign key to `users.id`. */
  @PrimaryColumn('uuid')
  userId: string;

  @Column('text')
  passwordHash: string;

  @Column('text')
  scheme: PasswordScheme;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
