import { ApiProperty } from '@nestjs/swagger';
import { PublicJwkResponse } from '@gatehouse/identity';

/** `GET /v1/auth/jwks.json`: the active keys (ES256, and RS256 once the project has one) and the retiring keys that still verify. */
export class JwksResponse {
  @ApiProperty({ type: [PublicJwkResponse] }) keys!: PublicJwkResponse[];
}
