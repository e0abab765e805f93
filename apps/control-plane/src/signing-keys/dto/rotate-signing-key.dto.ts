import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import type { SigningKeyAlgorithm } from '@gatehouse/entities';

export const SIGNING_KEY_ALGORITHMS = [
  'ES256',
  'RS256',
] as const satisfies readonly SigningKeyAlgorithm[];

/** The body of a rotation: none, `{}`, or the algorithm whose key to rotate; anything else is refused. */
export class RotateSigningKeyDto {
  @ApiPropertyOptional({
    enum: SIGNING_KEY_ALGORITHMS,
    default: 'ES256',
    description:
      'Which kind of key to rotate: `ES256` (access tokens, and ID tokens by default) or `RS256` (ID tokens of OpenID Connect clients that ask for RS256); keys of the other algorithm are untouched',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(SIGNING_KEY_ALGORITHMS, { message: 'must be "ES256" or "RS256"' })
  algorithm?: SigningKeyAlgorithm;
}
