import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { MAX_ROLE_PERMISSIONS } from '@gatehouse/organizations';
import { IsPermissionList, IsRoleName } from './role-rules';

const present = (_: object, v: unknown) => v !== undefined;

/** `PATCH /v1/admin/projects/{id}/roles/{key}`: any of these, each replacing the stored one (the key stays). */
export class UpdateRoleDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @ValidateIf(present)
  @IsRoleName()
  name?: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @ValidateIf(present)
  @IsString()
  @MaxLength(300)
  description?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_ROLE_PERMISSIONS,
    description: "The whole new list; admin's cannot be narrowed (409)",
  })
  @ValidateIf(present)
  @IsPermissionList()
  permissions?: string[];
}
