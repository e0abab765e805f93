import { ApiProperty } from '@nestjs/swagger';
import type { User } from '@gatehouse/entities';
import type { IssuedSession } from '../sessions/sessions.service';

/** The sign-in body `{user: {id, email}, session: {id, access_token}}` (docs/api-contract.md §2), for every way in. */
export function signedInBody(
  user: Pick<User, 'id' | 'email'>,
  session: Pick<IssuedSession, 'sessionId' | 'accessToken'>,
) {
  return {
    user: { id: user.id, email: user.email },
    session: { id: session.sessionId, access_token: session.accessToken },
  };
}

class SignedInUser {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
}

class SignedInSession {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'An ES256 JWT (docs/api-contract.md §2)' }) access_token!: string;
}

/** The body of every way in that ends with a session (`signedInBody`). */
export class SignedInResponse {
  @ApiProperty({ type: SignedInUser }) user!: SignedInUser;
  @ApiProperty({ type: SignedInSession }) session!: SignedInSession;
}

/** A sign-in that needs the second factor (docs/api-contract.md §5). */
export class MfaChallengeResponse {
  @ApiProperty({ enum: [true] }) mfa_required!: true;
  @ApiProperty({ description: 'Opaque, 5 minutes, single use' }) mfa_token!: string;
  @ApiProperty({ type: [String], example: ['totp', 'backup_code'] }) available_factors!: string[];
}

class SignedUpUser extends SignedInUser {
  @ApiProperty({ enum: ['active'] }) status!: string;
}

class SignedUpSession extends SignedInSession {
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

/** `POST /v1/auth/sign-up` (201). */
export class SignedUpResponse {
  @ApiProperty({ type: SignedUpUser }) user!: SignedUpUser;
  @ApiProperty({ type: SignedUpSession }) session!: SignedUpSession;
}
