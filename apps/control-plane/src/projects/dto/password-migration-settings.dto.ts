import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

/**
 * `settings.password_migration` (docs/migration.md): lazy migration from a system whose hashes
 * cannot leave it. One top-level settings key, replaced whole by a PATCH, except the write-only
 * `secret`, which stays when a PATCH leaves it out (reads show `secret_set`).
 */
export class PasswordMigrationSettingsDto {
  @ApiPropertyOptional({
    default: false,
    description:
      'Whether password sign-ins of unknown emails and of imported users without a hash ask the old system',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    example: 'https://legacy.example.com/gatehouse/verify',
    description:
      'POST {email, password} → 200 {user} when right; private addresses as for webhooks',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    description:
      'Signing secret of each call (Standard Webhooks): `whsec_` + base64 of at least 24 random bytes; write-only',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(256)
  @Matches(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, {
    message: 'must be whsec_ followed by the base64 of at least 24 bytes',
  })
  secret?: string;

  @ApiPropertyOptional({
    default: 5000,
    minimum: 500,
    maximum: 10000,
    description: 'How long a sign-in waits for the old system',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsInt()
  @Min(500)
  @Max(10000)
  timeout_ms?: number;
}
