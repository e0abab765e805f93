import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { MAX_ROLE_PERMISSIONS, ROLE_KEY } from '@gatehouse/organizations';
import { IsPermissionList, IsRoleName } from './role-rules';

/** `POST /v1/admin/projects/{id}/roles`: a custom role members of the project's organizations can hold. */
export class CreateRoleDto {
  @ApiProperty({
    example: 'billing_manager',
    pattern: ROLE_KEY.source,
    description: 'Unique in the project; admin and member are built in',
  })
  @IsString()
  @Matches(ROLE_KEY, { message: 'must be 1-40 lower-case letters, digits, _ or -' })
  key!: string;

  @ApiProperty({ example: 'Billing manager', minLength: 1, maxLength: 100 })
  @IsRoleName()
  name!: string;

  @ApiPropertyOptional({ maxLength: 300, default: '' })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsString()
  @MaxLength(300)
  description?: string;

  @ApiProperty({
    type: [String],
    example: ['invoices:read', 'org:members:read'],
    maxItems: MAX_ROLE_PERMISSIONS,
    description: "Keys of the project's permissions or system permissions",
  })
  @IsPermissionList()
  permissions!: string[];
}
