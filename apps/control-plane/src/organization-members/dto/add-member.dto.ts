import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import type { MemberRole } from '@gatehouse/entities';

export class AddMemberDto {
  @ApiProperty({ description: "A user of the organization's project" })
  @IsString()
  @MaxLength(64)
  user_id!: string;

  @ApiPropertyOptional({ enum: ['admin', 'member'], default: 'member' })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(['admin', 'member'], { message: 'must be "admin" or "member"' })
  role?: MemberRole;
}
