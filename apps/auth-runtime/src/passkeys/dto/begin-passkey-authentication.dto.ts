import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

export class BeginPasskeyAuthenticationDto {
  @ApiPropertyOptional({ description: 'Omit for discoverable credentials (the authenticator picks the account)', example: 'ada@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'must be a valid email address' })
  email?: string;
}
