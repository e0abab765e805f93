import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsObject, IsString, MaxLength, ValidateIf } from 'class-validator';

export class CompletePasskeyRegistrationDto {
  @ApiProperty({
    description:
      'The WebAuthn attestation response as JSON (RegistrationResponseJSON, e.g. from @simplewebauthn/browser startRegistration)',
  })
  @IsObject()
  credential!: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'A label for the passkey (default "Passkey")',
    example: 'MacBook Touch ID',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  name?: string;
}
