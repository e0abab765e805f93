import { Column, Entity } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

@Entity('oauth_transactions')
export class OAuthTransaction extends ProjectScoped {
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
}
