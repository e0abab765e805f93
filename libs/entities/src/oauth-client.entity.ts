import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/**
 * A relying party of a project's OpenID Connect provider (docs/api-contract.md §11). `client_id` is UNIQUE
 * in the database; the secret of a confidential client is stored as its SHA-256 (it is 256 random
 * bits, so a fast hash is enough) and shown once.
 */
@Entity('oauth_clients')
export class OAuthClient extends ProjectScoped {
  @Column('text')
  clientId: string;

  @Column('text')
  name: string;

  /** SHA-256 hex of the secret; null for public clients (`token_endpoint_auth_method: none`). */
  @Column('text', { nullable: true })
  secretHash: string | null;

  @Column('jsonb', { default: [] })
  redirectUris: string[];

  @Column('jsonb', { default: [] })
  postLogoutRedirectUris: string[];

  @Column('jsonb')
  grantTypes: string[];

  @Column('text')
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;

  @Column('jsonb')
  scopes: string[];

  @Column('boolean', { default: false })
  firstParty: boolean;

  @Column('text', { default: 'RS256' })
  idTokenSignedResponseAlg: string;

  /** PKCE on every authorization request; false only for a confidential client that uses the OpenID Connect nonce instead (RFC 9700 §2.1.1). */
  @Column('boolean', { default: true })
  requirePkce: boolean;

  /** Authorization requests only through the pushed authorization request endpoint (RFC 9126 §6). */
  @Column('boolean', { default: false })
  requirePushedAuthorizationRequests: boolean;

  /** Registered by itself through dynamic registration (RFC 7591): errors before sign-in are shown, not redirected (RFC 9700 §4.11.2). */
  @Column('boolean', { default: false })
  selfRegistered: boolean;

  /** `default_acr_values` the client registered with: an authorization request without `acr_values` asks for these. */
  @Column('jsonb', { default: [] })
  defaultAcrValues: string[];

  /** SHA-256 hex of the registration access token of a dynamically registered client (RFC 7591/7592). */
  @Column('text', { nullable: true })
  registrationTokenHash: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
