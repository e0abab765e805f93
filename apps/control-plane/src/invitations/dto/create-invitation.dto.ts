import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import type { MemberRole } from '@gatehouse/entities';
import { IsEmailAddress } from '@gatehouse/identity';

export class CreateInvitationDto {
  @ApiProperty({ example: 'grace@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({ enum: ['admin', 'member'], default: 'member' })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(['admin', 'member'], { message: 'must be "admin" or "member"' })
  role?: MemberRole;
}
