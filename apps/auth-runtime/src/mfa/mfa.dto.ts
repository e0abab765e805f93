import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

const SIX_DIGITS = /^\d{6}$/;
const SIX_DIGITS_MESSAGE = 'must be a string of 6 digits';

export class CodeDto {
  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(SIX_DIGITS, { message: SIX_DIGITS_MESSAGE })
  code!: string;
}

export class SmsSetupDto {
  @ApiProperty({ example: '+14155550123', description: 'E.164 phone number' })
  @IsString()
  @MaxLength(20)
  @Matches(/^\+[1-9]\d{6,14}$/, {
    message: 'must be a phone number in E.164 format, e.g. +14155550123',
  })
  phone_number!: string;
}

export class MfaTokenDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  mfa_token!: string;
}

export const MFA_FACTORS = ['totp', 'sms', 'backup_code'] as const;
export type MfaFactorName = (typeof MFA_FACTORS)[number];

export class MfaVerifyDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  mfa_token!: string;

  @ApiProperty({ enum: MFA_FACTORS })
  @IsString()
  @IsIn(MFA_FACTORS, { message: 'must be one of totp, sms, backup_code' })
  factor!: MfaFactorName;

  @ApiProperty({ description: '6 digits for totp and sms; a backup code such as abcde-fghij' })
  @IsString()
  @MaxLength(64)
  code!: string;
}
