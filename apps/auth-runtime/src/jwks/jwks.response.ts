import { ApiProperty } from '@nestjs/swagger';

/** A public signing key as a JWK (RFC 7517): P-256, ES256, for signatures. */
export class PublicJwkResponse {
  @ApiProperty({ enum: ['EC'] }) kty!: string;
  @ApiProperty({ enum: ['P-256'] }) crv!: string;
  @ApiProperty({ description: 'base64url' }) x!: string;
  @ApiProperty({ description: 'base64url' }) y!: string;
  @ApiProperty({ description: 'The `kid` header of the tokens it verifies' }) kid!: string;
  @ApiProperty({ enum: ['ES256'] }) alg!: string;
  @ApiProperty({ enum: ['sig'] }) use!: string;
}

/** `GET /v1/auth/jwks.json`: the active key and the retiring keys that still verify. */
export class JwksResponse {
  @ApiProperty({ type: [PublicJwkResponse] }) keys!: PublicJwkResponse[];
}
