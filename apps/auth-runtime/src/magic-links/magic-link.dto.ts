import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

export class SendMagicLinkDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({ description: "Where to land after sign-in; must be one of the project's redirect URLs" })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  redirect_url?: string;
}
