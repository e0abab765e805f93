import { ApiProperty } from '@nestjs/swagger';
import type { OrganizationDomain } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';
import { DOMAIN_ENROLLMENTS, verificationName } from '@gatehouse/organizations';

/** The DNS record that proves the domain: a TXT record named `name` holding `value`. */
export class DomainVerificationResponse {
  @ApiProperty({ enum: ['dns_txt'] }) type!: 'dns_txt';
  @ApiProperty({ example: '_gatehouse-verification.acme.com' }) name!: string;
  @ApiProperty({ description: 'The value the TXT record must hold (one of its strings)' })
  value!: string;
}

/** A domain of an organization (docs/api-contract.md §14). */
export class DomainResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty({ example: 'acme.com', description: 'Lower case; an IDN in punycode' })
  domain!: string;
  @ApiProperty({ enum: ['pending', 'verified'] }) status!: 'pending' | 'verified';
  @ApiProperty({ type: DomainVerificationResponse }) verification!: DomainVerificationResponse;
  @ApiProperty({ enum: DOMAIN_ENROLLMENTS }) enrollment!: string;
  @ApiProperty({ example: 'member', description: 'A role key of the project' })
  default_role!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  verified_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/organizations/{id}/domains`, by domain. */
export class DomainListResponse {
  @ApiProperty({ type: [DomainResponse] }) domains!: DomainResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toDomainResponse(d: OrganizationDomain): DomainResponse {
  return {
    id: d.id,
    organization_id: d.organizationId,
    domain: d.domain,
    status: d.status,
    verification: { type: 'dns_txt', name: verificationName(d.domain), value: d.verificationValue },
    enrollment: d.enrollment,
    default_role: d.defaultRole,
    verified_at: d.verifiedAt ? d.verifiedAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
