import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import type { MemberRole } from '@gatehouse/entities';

export class UpdateMemberDto {
  @ApiProperty({ enum: ['admin', 'member'] })
  @IsIn(['admin', 'member'], { message: 'must be "admin" or "member"' })
  role!: MemberRole;
}
