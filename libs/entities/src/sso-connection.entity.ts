import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

export type SsoConnectionType = 'saml' | 'oidc';

/** Which asserted attribute (SAML) or claim (OIDC) gives each user field. */
export interface SsoAttributeMapping {
  email?: string;
  given_name?: string;
  family_name?: string;
  groups?: string;
}

/** A SAML identity provider, as read from its metadata. */
export interface SamlIdpSettings {
  idp_entity_id: string;
  sso_url: string;
  /** Base64 DER, no whitespace. */
  certificates: string[];
  allow_idp_initiated: boolean;
  /** Where the metadata was fetched from, when it was given by URL. */
  idp_metadata_url: string | null;
}

export interface OidcIdpSettings {
  issuer: string;
  client_id: string;
  scopes: string[];
}

/** An enterprise SSO connection of an organization (docs/api-contract.md §15). */
@Entity('sso_connections')
export class SsoConnection extends ProjectScoped {
  @Column('uuid')
  organizationId: string;

  @Column('text')
  type: SsoConnectionType;

  @Column('text')
  name: string;

  /** Verified domains of the organization, lower case, punycode. */
  @Column('text', { array: true, default: () => "'{}'" })
  domains: string[];

  @Column('boolean', { default: true })
  enabled: boolean;

  @Column('boolean', { default: false })
  enforce: boolean;

  @Column('boolean', { default: true })
  jitEnabled: boolean;

  @Column('text', { default: 'member' })
  jitDefaultRole: string;

  @Column('jsonb', { default: () => "'{}'" })
  attributeMapping: SsoAttributeMapping;

  /** IdP group → role key of the project. */
  @Column('jsonb', { default: () => "'{}'" })
  groupRoles: Record<string, string>;

  @Column('jsonb', { nullable: true })
  saml: SamlIdpSettings | null;

  @Column('jsonb', { nullable: true })
  oidc: OidcIdpSettings | null;

  @Column('text', { nullable: true })
  oidcClientSecretEncrypted: string | null;

  /** The service provider's signing certificate (PEM), published in its metadata. */
  @Column('text', { nullable: true })
  spCertificate: string | null;

  @Column('text', { nullable: true })
  spPrivateKeyEncrypted: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
