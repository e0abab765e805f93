import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, ValidateIf } from 'class-validator';
import type { UserStatus } from '@gatehouse/entities';
import { IsMetadata } from '../../common/metadata';

/** `status`, `metadata` and/or `email_verified`; anything else (`id`, `email`, `is_admin`, `password_hash`…) is refused. */
export class UpdateUserDto {
  @ApiPropertyOptional({
    enum: ['active', 'disabled'],
    description: '`disabled` revokes every session; `active` also clears a lockout',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(['active', 'disabled'], { message: 'must be "active" or "disabled"' })
  status?: UserStatus;

  @ApiPropertyOptional({
    description: 'Replaces the whole metadata object (at most 8 KiB as JSON)',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: "Mark the email verified (or not) on the user's behalf (docs/api-contract.md §13)",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  email_verified?: boolean;
}
