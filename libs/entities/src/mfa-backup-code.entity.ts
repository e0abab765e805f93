import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** UNIQUE (user_id, code_hash) in the database. */
@Entity('mfa_backup_codes')
export class MfaBackupCode {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column('text')
  codeHash: string;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
