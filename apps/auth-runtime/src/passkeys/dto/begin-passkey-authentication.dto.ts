import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

/** Optional fields take no `null` (`ValidateIf`, not `IsOptional`): a null email is a 400 on `email`. */
export class BeginPasskeyAuthenticationDto {
  @ApiPropertyOptional({
    description: 'Omit for discoverable credentials (the authenticator picks the account)',
    example: 'ada@example.com',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsEmailAddress()
  email?: string;
}
