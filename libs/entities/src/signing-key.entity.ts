import { Column, Entity } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

export type SigningKeyStatus = 'active' | 'retiring' | 'retired' | 'revoked';
/** ES256 signs our access tokens (and ID tokens by default); RS256 only ID tokens and JWT access tokens of OIDC clients that ask for it. */
export type SigningKeyAlgorithm = 'ES256' | 'RS256';

@Entity('signing_keys')
export class SigningKey extends ProjectScoped {
  /** UNIQUE in the database. */
  @Column('text')
  kid: string;

  /** CHECK (algorithm IN ('ES256', 'RS256')). */
  @Column('text', { default: 'ES256' })
  algorithm: SigningKeyAlgorithm;

  /** At most one `active` key per project and algorithm (partial unique index `signing_keys_one_active_per_algorithm`). */
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
