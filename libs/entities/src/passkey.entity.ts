import { Column, Entity } from 'typeorm';
import { UserScoped } from './scoped-entity';

@Entity('passkeys')
export class Passkey extends UserScoped {
  /** UNIQUE in the database. */
  @Column('text')
  credentialId: string;

  @Column('bytea')
  publicKey: Buffer;

  /** bigint: node-postgres returns int8 values as strings to avoid precision loss. */
  @Column('bigint', { default: 0 })
  counter: string;

  @Column('jsonb', { default: [] })
  transports: string[];

  @Column('text')
  deviceType: string;

  @Column('boolean', { default: false })
  backedUp: boolean;

  @Column('text')
  name: string;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
