import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import type { MemberRole } from '@gatehouse/entities';

export class CreateInvitationDto {
  @ApiProperty({ example: 'grace@example.com' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'must be a valid email address' })
  email!: string;

  @ApiPropertyOptional({ enum: ['admin', 'member'], default: 'member' })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(['admin', 'member'], { message: 'must be "admin" or "member"' })
  role?: MemberRole;
}
