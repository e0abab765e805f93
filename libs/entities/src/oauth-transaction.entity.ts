import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('oauth_transactions')
export class OAuthTransaction {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('uuid')
  projectId: string;

  @Column('text')
  provider: string;

  /** UNIQUE in the database. */
  @Column('text')
  stateHash: string;

  @Column('text')
  browserBindingHash: string;

  @Column('text')
  codeVerifierEncrypted: string;

  @Column('text', { nullable: true })
  nonce: string | null;

  @Column('text')
  redirectUrl: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  consumedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
