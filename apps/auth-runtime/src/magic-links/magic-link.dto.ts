import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

export class SendMagicLinkDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({
    description: "Where to land after sign-in; must be one of the project's redirect URLs",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(2048)
  redirect_url?: string;
}
