import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsObject, IsString, MaxLength, ValidateIf } from 'class-validator';
import { MFA_FACTORS, type MfaFactorName } from '../mfa/mfa.dto';

const given = (_: object, v: unknown) => v !== undefined;

/**
 * One proof of identity: `{password}`, or `{factor, code}` (TOTP, SMS after
 * `POST /v1/auth/reauthenticate/sms`, or a backup code), or `{credential}` (a passkey assertion for
 * options from `POST /v1/auth/passkey/authenticate/begin`). Which one is given is judged by the
 * service (exactly one).
 */
export class ReauthenticateDto {
  @ApiPropertyOptional({ description: "The user's password" })
  @ValidateIf(given)
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({ enum: MFA_FACTORS })
  @ValidateIf(given)
  @IsString()
  @IsIn(MFA_FACTORS, { message: 'must be one of totp, sms, backup_code' })
  factor?: MfaFactorName;

  @ApiPropertyOptional({
    description: '6 digits for totp and sms; a backup code such as abcde-fghij',
  })
  @ValidateIf(given)
  @IsString()
  @MaxLength(64)
  code?: string;

  @ApiPropertyOptional({
    description:
      "A WebAuthn assertion response (AuthenticationResponseJSON) of one of the user's passkeys",
  })
  @ValidateIf(given)
  @IsObject()
  credential?: Record<string, unknown>;
}
