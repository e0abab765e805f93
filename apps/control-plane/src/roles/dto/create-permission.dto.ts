import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { PERMISSION_KEY, PERMISSION_KEY_MAX } from '@gatehouse/organizations';

/** `POST /v1/admin/projects/{id}/permissions`: a permission of the project's catalog. */
export class CreatePermissionDto {
  @ApiProperty({
    example: 'invoices:read',
    maxLength: PERMISSION_KEY_MAX,
    pattern: PERMISSION_KEY.source,
    description:
      'resource:action in lower case; unique in the project; the org: namespace is the system permissions',
  })
  @IsString()
  @Length(3, PERMISSION_KEY_MAX)
  @Matches(PERMISSION_KEY, {
    message:
      'must be resource:action in lower case (letters, digits, _ and -, and . in the action)',
  })
  @Matches(/^(?!org:)/, { message: 'the org: namespace is reserved for the system permissions' })
  key!: string;

  @ApiPropertyOptional({ example: 'Read invoices', maxLength: 300, default: '' })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsString()
  @MaxLength(300)
  description?: string;
}
