import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SsoConnection } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';
import { describeCertificate, ssoUrls } from '@gatehouse/organizations';

export class SsoJitResponse {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ example: 'member' }) default_role!: string;
}

export class SsoAttributeMappingResponse {
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() given_name?: string;
  @ApiPropertyOptional() family_name?: string;
  @ApiPropertyOptional() groups?: string;
}

export class SamlCertificateResponse {
  @ApiProperty({ example: 'AB:CD:…' }) fingerprint_sha256!: string;
  @ApiProperty({ format: 'date-time' }) not_before!: string;
  @ApiProperty({ format: 'date-time' }) not_after!: string;
}

/** The IdP's settings as read from its metadata. */
export class SamlSettingsResponse {
  @ApiProperty({ description: "The IdP's entityID: the Issuer of its responses" })
  idp_entity_id!: string;
  @ApiProperty({ description: 'Where sign-ins are sent (HTTP-Redirect binding)' })
  sso_url!: string;
  @ApiProperty({ type: [SamlCertificateResponse] }) certificates!: SamlCertificateResponse[];
  @ApiProperty() allow_idp_initiated!: boolean;
  @ApiProperty({ type: String, nullable: true }) idp_metadata_url!: string | null;
}

export class OidcSettingsResponse {
  @ApiProperty() issuer!: string;
  @ApiProperty() client_id!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
}

/** What the IdP is given: this service provider's entity id, ACS URL and metadata. */
export class SamlServiceProviderResponse {
  @ApiProperty() entity_id!: string;
  @ApiProperty() acs_url!: string;
  @ApiProperty() metadata_url!: string;
}

/** An SSO connection of an organization (docs/api-contract.md §15); secrets are never shown. */
export class SsoConnectionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty({ enum: ['saml', 'oidc'] }) type!: 'saml' | 'oidc';
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) domains!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty() enforce!: boolean;
  @ApiProperty({ type: SsoJitResponse }) jit!: SsoJitResponse;
  @ApiProperty({ type: SsoAttributeMappingResponse })
  attribute_mapping!: SsoAttributeMappingResponse;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  group_roles!: Record<string, string>;
  @ApiPropertyOptional({ type: SamlSettingsResponse, description: 'SAML connections' })
  saml?: SamlSettingsResponse;
  @ApiPropertyOptional({ type: SamlServiceProviderResponse, description: 'SAML connections' })
  sp?: SamlServiceProviderResponse;
  @ApiPropertyOptional({ type: OidcSettingsResponse, description: 'OpenID Connect connections' })
  oidc?: OidcSettingsResponse;
  @ApiPropertyOptional({
    description: 'OpenID Connect connections: the redirect URI to register at the IdP',
  })
  redirect_uri?: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/organizations/{id}/sso-connections`, oldest first. */
export class SsoConnectionListResponse {
  @ApiProperty({ type: [SsoConnectionResponse] }) sso_connections!: SsoConnectionResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toSsoConnectionResponse(
  c: SsoConnection,
  publicAuthUrl: string,
): SsoConnectionResponse {
  const urls = ssoUrls(publicAuthUrl, c.id);
  return {
    id: c.id,
    organization_id: c.organizationId,
    type: c.type,
    name: c.name,
    domains: c.domains,
    enabled: c.enabled,
    enforce: c.enforce,
    jit: { enabled: c.jitEnabled, default_role: c.jitDefaultRole },
    attribute_mapping: c.attributeMapping,
    group_roles: c.groupRoles,
    ...(c.saml && {
      saml: {
        idp_entity_id: c.saml.idp_entity_id,
        sso_url: c.saml.sso_url,
        certificates: c.saml.certificates.map(describeCertificate),
        allow_idp_initiated: c.saml.allow_idp_initiated,
        idp_metadata_url: c.saml.idp_metadata_url,
      },
      sp: { entity_id: urls.entityId, acs_url: urls.acsUrl, metadata_url: urls.metadataUrl },
    }),
    ...(c.oidc && {
      oidc: { issuer: c.oidc.issuer, client_id: c.oidc.client_id, scopes: c.oidc.scopes },
      redirect_uri: urls.redirectUri,
    }),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
