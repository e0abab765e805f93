import { Column, Entity } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

export type SigningKeyStatus = 'active' | 'retiring' | 'retired' | 'revoked';

@Entity('signing_keys')
export class SigningKey extends ProjectScoped {
  /** UNIQUE in the database. */
  @Column('text')
  kid: string;

  @Column('text', { default: 'ES256' })
  algorithm: string;

  /** At most one `active` key per project (partial unique index in the migration). */
  @Column('text')
  status: SigningKeyStatus;

  @Column('jsonb')
  publicJwk: Record<string, unknown>;

  @Column('text')
  privateKeyEncrypted: string;

  @Column({ type: 'timestamptz', nullable: true })
  retireAfter: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
