import { ApiProperty } from '@nestjs/swagger';

/** `POST /v1/auth/mfa/totp/setup`: shown once. */
export class TotpSetupResponse {
  @ApiProperty({ description: 'Base32' }) secret!: string;
  @ApiProperty({ example: 'otpauth://totp/Acme:ada@example.com?secret=…&issuer=Acme' })
  qr_code_url!: string;
  @ApiProperty({ type: [String], description: 'Ten single-use codes' }) backup_codes!: string[];
}

/** A factor whose enrolment completed. */
export class FactorEnabledResponse {
  @ApiProperty({ enum: ['totp', 'sms'] }) factor!: string;
  @ApiProperty({ enum: [true] }) enabled!: boolean;
}

/** `POST /v1/auth/mfa/backup-codes/regenerate`: shown once. */
export class BackupCodesResponse {
  @ApiProperty({ type: [String] }) backup_codes!: string[];
}
