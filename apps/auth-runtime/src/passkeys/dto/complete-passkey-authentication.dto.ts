import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

export class CompletePasskeyAuthenticationDto {
  @ApiProperty({
    description:
      'The WebAuthn assertion response as JSON (AuthenticationResponseJSON, e.g. from @simplewebauthn/browser startAuthentication)',
  })
  @IsObject()
  credential!: Record<string, unknown>;
}
