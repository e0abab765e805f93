import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The public half of a signing key as a JWK (RFC 7517/7518), as `jwks.json` serves it and the
 * admin API shows it: `kty`, `crv`, `x`, `y` for an ES256 (P-256) key; `kty`, `n`, `e` for an
 * RS256 (RSA) key; `kid`, `alg` and `use` for both. Never a private member.
 */
export class PublicJwkResponse {
  @ApiProperty({ enum: ['EC', 'RSA'] }) kty!: string;
  @ApiPropertyOptional({ enum: ['P-256'], description: 'EC keys only' }) crv?: string;
  @ApiPropertyOptional({ description: 'EC keys only; base64url' }) x?: string;
  @ApiPropertyOptional({ description: 'EC keys only; base64url' }) y?: string;
  @ApiPropertyOptional({ description: 'RSA keys only: the modulus, base64url (2048 bits)' })
  n?: string;
  @ApiPropertyOptional({ description: 'RSA keys only: the public exponent, base64url' }) e?: string;
  @ApiProperty({ description: 'The `kid` header of the tokens it verifies' }) kid!: string;
  @ApiProperty({ enum: ['ES256', 'RS256'] }) alg!: string;
  @ApiProperty({ enum: ['sig'] }) use!: string;
}
