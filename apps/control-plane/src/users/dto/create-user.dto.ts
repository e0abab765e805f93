import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';
import { IsMetadata } from '../../common/metadata';

/** `POST /v1/admin/users` (docs/api-contract.md §13): a user of one of the tenant's projects, by the sign-up rules. */
export class CreateUserDto {
  @ApiProperty({
    format: 'uuid',
    description: "One of the tenant's projects; another tenant's or an unknown one is 404",
  })
  @IsString()
  @MaxLength(64)
  project_id!: string;

  @ApiProperty({ example: 'ada@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({
    description:
      '8–128 characters (NFKC), not a common password, not the email or username. Omitted: the user has no password (a set-password invitation, a reset, a magic link or a social sign-in gives one a way in)',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({ description: '3–32 of a-z 0-9 _ . - (folded to lower case)' })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{3,32}$/, { message: 'must be 3–32 characters of a-z, 0-9, _, . and -' })
  username?: string;

  @ApiPropertyOptional({ default: false })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  email_verified?: boolean;

  @ApiPropertyOptional({ description: 'Free key/value content, at most 8 KiB as JSON' })
  @ValidateIf((_, v) => v !== undefined)
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    default: false,
    description:
      "Without a password: mail the user a set-password link (7 days, single use) to the project's `settings.password_reset_url`; `POST /v1/auth/password/reset` completes it. With a password: 400",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  send_invitation?: boolean;
}
