import { Column, Entity } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

@Entity('api_keys')
export class ApiKey extends ProjectScoped {
  @Column('text')
  name: string;

  @Column('text')
  keyPrefix: string;

  /** UNIQUE in the database. */
  @Column('text')
  secretHash: string;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
