import { ApiProperty } from '@nestjs/swagger';
import type { MemberRole } from '@gatehouse/entities';
import { ROLE_KEY } from '@gatehouse/organizations';
import { IsRoleKey } from '../../roles/dto/role-rules';

export class UpdateMemberDto {
  @ApiProperty({
    type: String,
    example: 'member',
    pattern: ROLE_KEY.source,
    description: "A role key of the organization's project: admin, member or a custom role",
  })
  @IsRoleKey()
  role!: MemberRole;
}
