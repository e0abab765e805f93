import { ApiProperty } from '@nestjs/swagger';
import { PaginationResponse } from '@gatehouse/http';

/** One of the user's organizations with their role and what it lets them do there. */
export class MyOrganization {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ example: 'member', description: 'A role key of the project' }) role!: string;
  @ApiProperty({
    type: [String],
    example: ['org:members:read', 'invoices:read'],
    description: 'System permissions first, then by key',
  })
  permissions!: string[];
}

/** `GET /v1/auth/organizations`: the user's organizations in the project, by name. */
export class MyOrganizationsResponse {
  @ApiProperty({ type: [MyOrganization] }) organizations!: MyOrganization[];
}

/** A member of an organization, as its members see them. */
export class MyMemberResponse {
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true }) username!: string | null;
  @ApiProperty({ example: 'member' }) role!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/auth/organizations/{id}/members`. */
export class MyMemberListResponse {
  @ApiProperty({ type: [MyMemberResponse] }) members!: MyMemberResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

/** The organization a suggestion would join. */
export class SuggestedOrganization {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
}

/** An organization the user may join: its verified domain is their verified email's. */
export class OrganizationSuggestion {
  @ApiProperty({ format: 'uuid', description: "The domain's id; accept it to join" }) id!: string;
  @ApiProperty({ type: SuggestedOrganization }) organization!: SuggestedOrganization;
  @ApiProperty({ example: 'acme.com' }) domain!: string;
  @ApiProperty({ example: 'member', description: 'The role joining gives' }) role!: string;
}

/** `GET /v1/auth/organizations/suggestions`, by organization name. */
export class OrganizationSuggestionsResponse {
  @ApiProperty({ type: [OrganizationSuggestion] }) suggestions!: OrganizationSuggestion[];
}
