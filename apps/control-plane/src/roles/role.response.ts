import { ApiProperty } from '@nestjs/swagger';
import { PaginationResponse } from '@gatehouse/http';

/** A role of the project: a key members hold and the permissions it grants. */
export class RoleResponse {
  @ApiProperty({ example: 'billing_manager' }) key!: string;
  @ApiProperty({ example: 'Billing manager' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({
    type: [String],
    example: ['invoices:read'],
    description: 'System permissions first, then by key; admin holds every one',
  })
  permissions!: string[];
  @ApiProperty({ description: 'admin and member: cannot be deleted' }) built_in!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/projects/{id}/roles`: the built-in roles first, then by key. */
export class RoleListResponse {
  @ApiProperty({ type: [RoleResponse] }) roles!: RoleResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}
