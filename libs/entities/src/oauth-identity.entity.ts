import { Column, Entity } from 'typeorm';
import { UserScoped } from './scoped-entity';

/** UNIQUE (project_id, provider, subject) in the database. */
@Entity('oauth_identities')
export class OAuthIdentity extends UserScoped {
  @Column('text')
  provider: string;

  @Column('text')
  subject: string;

  @Column('text', { nullable: true })
  email: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
