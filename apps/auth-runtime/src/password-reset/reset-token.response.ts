import { ApiProperty } from '@nestjs/swagger';

/** `POST /v1/auth/password/reset/validate` (docs/api-contract.md §5); an unusable token is 400 `invalid-token`. */
export class ResetTokenValidResponse {
  @ApiProperty({ enum: [true] }) valid!: true;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
