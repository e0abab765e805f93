import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  AttestationConveyancePreference,
  AttestationFormat,
  AuthenticatorAttachment,
  AuthenticatorTransportFuture,
  PublicKeyCredentialHint,
  PublicKeyCredentialType,
  ResidentKeyRequirement,
  UserVerificationRequirement,
} from '@simplewebauthn/server';

// The WebAuthn Level 3 JSON forms the browser's `PublicKeyCredential.parseCreationOptionsFromJSON`
// and `parseRequestOptionsFromJSON` take (as @simplewebauthn/server builds them); binary members are
// base64url strings.

/** The authenticator transports WebAuthn names (an options' `transports`, a registration's). */
export const AUTHENTICATOR_TRANSPORTS = [
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
] satisfies AuthenticatorTransportFuture[];
const USER_VERIFICATION = [
  'required',
  'preferred',
  'discouraged',
] satisfies UserVerificationRequirement[];
const HINTS = ['hybrid', 'security-key', 'client-device'] satisfies PublicKeyCredentialHint[];
const EXTENSIONS = {
  type: 'object',
  additionalProperties: true,
  description: 'Client extension inputs (free-form), e.g. `{"credProps": true}`',
} as const;

class RelyingParty {
  @ApiProperty({ description: "The project's `rp_name` (default: the project name)" })
  name!: string;
  @ApiPropertyOptional({
    description: "The RP ID: the project's `rp_id`, else the host of its first allowed origin",
  })
  id?: string;
}

class PasskeyUserEntity {
  @ApiProperty({ description: 'The user handle, base64url' }) id!: string;
  @ApiProperty({ description: "The user's email" }) name!: string;
  @ApiProperty({ description: "The user's email" }) displayName!: string;
}

class CredentialParameters {
  @ApiProperty({ enum: ['public-key'] }) type!: PublicKeyCredentialType;
  @ApiProperty({
    type: 'integer',
    description: 'A COSE algorithm: -7 (ES256), -8 (EdDSA), -257 (RS256)',
    example: -7,
  })
  alg!: number;
}

class CredentialDescriptor {
  @ApiProperty({ description: 'The credential id, base64url' }) id!: string;
  @ApiProperty({ enum: ['public-key'] }) type!: PublicKeyCredentialType;
  @ApiPropertyOptional({ enum: AUTHENTICATOR_TRANSPORTS, isArray: true })
  transports?: AuthenticatorTransportFuture[];
}

class AuthenticatorSelection {
  @ApiPropertyOptional({ enum: ['platform', 'cross-platform'] satisfies AuthenticatorAttachment[] })
  authenticatorAttachment?: AuthenticatorAttachment;
  @ApiPropertyOptional() requireResidentKey?: boolean;
  @ApiPropertyOptional({
    enum: ['required', 'preferred', 'discouraged'] satisfies ResidentKeyRequirement[],
  })
  residentKey?: ResidentKeyRequirement;
  @ApiPropertyOptional({ enum: USER_VERIFICATION }) userVerification?: UserVerificationRequirement;
}

/** `POST /v1/auth/passkey/register/begin`: PublicKeyCredentialCreationOptionsJSON (challenge valid 5 minutes). */
export class PasskeyCreationOptionsResponse {
  @ApiProperty({ description: 'base64url; single use' }) challenge!: string;
  @ApiProperty({ type: RelyingParty }) rp!: RelyingParty;
  @ApiProperty({ type: PasskeyUserEntity }) user!: PasskeyUserEntity;
  @ApiProperty({ type: [CredentialParameters] }) pubKeyCredParams!: CredentialParameters[];
  @ApiPropertyOptional({ type: 'integer', description: 'Milliseconds' }) timeout?: number;
  @ApiPropertyOptional({
    type: [CredentialDescriptor],
    description: "The user's passkeys already registered",
  })
  excludeCredentials?: CredentialDescriptor[];
  @ApiPropertyOptional({ type: AuthenticatorSelection })
  authenticatorSelection?: AuthenticatorSelection;
  @ApiPropertyOptional({ enum: HINTS, isArray: true }) hints?: PublicKeyCredentialHint[];
  @ApiPropertyOptional({
    enum: ['none', 'indirect', 'direct', 'enterprise'] satisfies AttestationConveyancePreference[],
  })
  attestation?: AttestationConveyancePreference;
  @ApiPropertyOptional({
    enum: [
      'fido-u2f',
      'packed',
      'android-safetynet',
      'android-key',
      'tpm',
      'apple',
      'none',
    ] satisfies AttestationFormat[],
    isArray: true,
  })
  attestationFormats?: AttestationFormat[];
  @ApiPropertyOptional(EXTENSIONS) extensions?: object;
}

/** `POST /v1/auth/passkey/authenticate/begin`: PublicKeyCredentialRequestOptionsJSON (challenge valid 5 minutes). */
export class PasskeyRequestOptionsResponse {
  @ApiProperty({ description: 'base64url; single use' }) challenge!: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Milliseconds' }) timeout?: number;
  @ApiPropertyOptional({ description: 'The RP ID' }) rpId?: string;
  @ApiPropertyOptional({
    type: [CredentialDescriptor],
    description: 'Empty without an email (discoverable credentials)',
  })
  allowCredentials?: CredentialDescriptor[];
  @ApiPropertyOptional({ enum: USER_VERIFICATION }) userVerification?: UserVerificationRequirement;
  @ApiPropertyOptional({ enum: HINTS, isArray: true }) hints?: PublicKeyCredentialHint[];
  @ApiPropertyOptional(EXTENSIONS) extensions?: object;
}
