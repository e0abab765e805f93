import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import type { MemberRole } from '@gatehouse/entities';
import { ROLE_KEY } from '@gatehouse/organizations';
import { IsRoleKey } from '../../roles/dto/role-rules';

export class AddMemberDto {
  @ApiProperty({ description: "A user of the organization's project" })
  @IsString()
  @MaxLength(64)
  user_id!: string;

  @ApiPropertyOptional({
    type: String,
    default: 'member',
    pattern: ROLE_KEY.source,
    description: "A role key of the organization's project: admin, member or a custom role",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsRoleKey()
  role?: MemberRole;
}
