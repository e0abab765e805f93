import { ApiProperty } from '@nestjs/swagger';
import type { Organization } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';

/** Organization resource; organizations belong to a project (docs/api-contract.md §10). */
/** An organization's policies, with their defaults filled in. */
export class OrganizationSettingsResponse {
  @ApiProperty({
    description: 'Members without a second factor cannot make it active (403 mfa-required)',
  })
  require_mfa!: boolean;
}

export class OrganizationResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Unique in the project', example: 'acme' }) slug!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Free-form JSON object' })
  metadata!: Record<string, unknown>;
  @ApiProperty({ type: OrganizationSettingsResponse }) settings!: OrganizationSettingsResponse;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/organizations`, newest first. */
export class OrganizationListResponse {
  @ApiProperty({ type: [OrganizationResponse] }) organizations!: OrganizationResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toOrganizationResponse(o: Organization): OrganizationResponse {
  return {
    id: o.id,
    project_id: o.projectId,
    name: o.name,
    slug: o.slug,
    metadata: o.metadata,
    settings: { require_mfa: o.settings?.require_mfa === true },
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}
