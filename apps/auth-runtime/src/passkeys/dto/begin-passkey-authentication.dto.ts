import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

export class BeginPasskeyAuthenticationDto {
  @ApiPropertyOptional({ description: 'Omit for discoverable credentials (the authenticator picks the account)', example: 'ada@example.com' })
  @IsOptional()
  @IsEmailAddress()
  email?: string;
}
