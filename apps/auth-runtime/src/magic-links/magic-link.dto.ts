import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

export class SendMagicLinkDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'must be a valid email address' })
  email!: string;

  @ApiPropertyOptional({ description: "Where to land after sign-in; must be one of the project's redirect URLs" })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  redirect_url?: string;
}
