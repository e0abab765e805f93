import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** UNIQUE (project_id, provider, subject) in the database. */
@Entity('oauth_identities')
export class OAuthIdentity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('uuid')
  projectId: string;

  @Column('uuid')
  userId: string;

  @Column('text')
  provider: string;

  @Column('text')
  subject: string;

  @Column('text', { nullable: true })
  email: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
