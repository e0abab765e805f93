import { ApiProperty } from '@nestjs/swagger';

class ConfirmedUser {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The confirmed address (the new one after an email change)' })
  email!: string;
  @ApiProperty({ enum: [true] }) email_verified!: true;
}

/** `POST /v1/auth/verify-email/confirm` and `POST /v1/auth/email/change/confirm` (docs/api-contract.md §5). */
export class EmailConfirmedResponse {
  @ApiProperty({ type: ConfirmedUser }) user!: ConfirmedUser;
}
