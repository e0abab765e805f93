import { ApiProperty } from '@nestjs/swagger';
import type { AdminFactorType, UserFactorRow } from './user-factors';

const TYPES = ['totp', 'sms', 'passkey', 'backup_codes'] satisfies AdminFactorType[];

/** One second factor of a user (docs/api-contract.md §13); null where a field does not apply to its type. */
export class UserFactorResponse {
  @ApiProperty({
    description:
      'Opaque; `DELETE …/factors/{factor_id}` removes it (for `backup_codes`, the whole set)',
  })
  id!: string;
  @ApiProperty({ enum: TYPES }) type!: AdminFactorType;
  @ApiProperty({ type: String, nullable: true, description: "A passkey's name" }) name!:
    string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'SMS: the number with all but its first three and last two characters hidden',
    example: '+49•••••••12',
  })
  phone_number_hint!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Backup codes: how many are still unused',
  })
  remaining!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
}

/** `GET /v1/admin/users/{id}/factors`, oldest first. */
export class UserFactorListResponse {
  @ApiProperty({ type: [UserFactorResponse] }) factors!: UserFactorResponse[];
}

/** `+4915112345612` → `+49•••••••••12`: enough to recognise a number, not to call it. */
export function phoneNumberHint(phone: string): string {
  if (phone.length <= 5) return '•'.repeat(phone.length);
  return `${phone.slice(0, 3)}${'•'.repeat(phone.length - 5)}${phone.slice(-2)}`;
}

export function toUserFactorResponse(f: UserFactorRow): UserFactorResponse {
  return {
    id: f.id,
    type: f.type,
    name: f.type === 'passkey' ? f.name : null,
    phone_number_hint: f.type === 'sms' && f.phone_number ? phoneNumberHint(f.phone_number) : null,
    remaining: f.type === 'backup_codes' ? f.remaining : null,
    created_at: new Date(f.created_at).toISOString(),
    last_used_at: f.last_used_at === null ? null : new Date(f.last_used_at).toISOString(),
  };
}

/** `POST /v1/admin/users/{id}/impersonate`: the one-time link and when it stops working. */
export class ImpersonationLinkResponse {
  @ApiProperty({
    description:
      'Open it in a browser once, within 60 s: a session of the user starts on the auth runtime and the browser lands on the redirect URL',
    example: 'https://auth.example.com/v1/auth/impersonation/verify?token=…&project_key=pk_…',
  })
  url!: string;

  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
