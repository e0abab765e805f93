import { ApiProperty } from '@nestjs/swagger';
import { IsEmailAddress } from '@gatehouse/identity';

export class SsoDiscoverDto {
  @ApiProperty({ example: 'ada@acme.com' })
  @IsEmailAddress()
  email!: string;
}

/** The connection an email's domain signs in through. */
export interface DiscoveredConnection {
  id: string;
  type: 'saml' | 'oidc';
  organization_id: string;
  name: string;
}

export class SsoDiscoverResponse {
  // An inline object: a nullable $ref is not expressible in OpenAPI 3.0 (as /me's active_organization).
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['id', 'type', 'organization_id', 'name'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['saml', 'oidc'] },
      organization_id: { type: 'string', format: 'uuid' },
      name: { type: 'string', example: 'Acme Okta' },
    },
    description: "The enabled connection of the email's domain, or null",
  })
  connection!: DiscoveredConnection | null;
}
