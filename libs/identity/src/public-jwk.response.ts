import { ApiProperty } from '@nestjs/swagger';

/** The public half of an ES256 signing key as a JWK (RFC 7517), as `jwks.json` serves it and the admin API shows it. */
export class PublicJwkResponse {
  @ApiProperty({ enum: ['EC'] }) kty!: string;
  @ApiProperty({ enum: ['P-256'] }) crv!: string;
  @ApiProperty({ description: 'base64url' }) x!: string;
  @ApiProperty({ description: 'base64url' }) y!: string;
  @ApiProperty({ description: 'The `kid` header of the tokens it verifies' }) kid!: string;
  @ApiProperty({ enum: ['ES256'] }) alg!: string;
  @ApiProperty({ enum: ['sig'] }) use!: string;
}
