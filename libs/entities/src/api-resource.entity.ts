import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

/** A scope of an API resource, with the words the consent screen shows for it. */
export interface ApiResourceScope {
  name: string;
  description: string;
}

/**
 * An API of a project that its OpenID Connect provider issues access tokens for (RFC 8707
 * `resource`, RFC 9068 JWTs whose `aud` is `identifier`). `(project_id, identifier)` is UNIQUE in
 * the database; the identifier is stored URL-normalised, as a `resource` parameter is matched.
 */
@Entity('api_resources')
export class ApiResource extends ProjectScoped {
  @Column('text')
  identifier: string;

  @Column('text')
  name: string;

  @Column('jsonb', { default: [] })
  scopes: ApiResourceScope[];

  /** Lifetime of its access tokens; null: the project's `access_token_ttl_seconds`. */
  @Column('integer', { nullable: true })
  accessTokenTtlSeconds: number | null;

  /** Whether clients that registered themselves (RFC 7591) may get tokens for it (after the user's consent). */
  @Column('boolean', { default: false })
  allowDynamicClients: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
