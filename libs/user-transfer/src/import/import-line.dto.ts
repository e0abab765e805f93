import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ArrayMaxSize,
  ValidateNested,
  IsDefined,
} from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

export class ImportIdentityDto {
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z0-9_-]+$/, { message: 'must be a provider name of a-z, 0-9, _ and -' })
  provider!: string;
  @IsString() @MaxLength(255) subject!: string;
  @IsOptional() @IsString() @MaxLength(254) email?: string | null;
}

/** One line of an import (docs/api-contract.md §12); `password_hash` is read by parseImportedHash. */
export class ImportLineDto {
  @IsEmailAddress() email!: string;
  @IsOptional() @IsBoolean() email_verified?: boolean;
  /** `disabled`: the user is created disabled (an update disables, never re-enables: see UserImportService.write). */
  @IsOptional() @IsIn(['active', 'disabled'], { message: 'must be active or disabled' }) status?:
    'active' | 'disabled';
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{3,32}$/, { message: 'must be 3–32 characters of a-z, 0-9, _, . and -' })
  username?: string | null;
  @IsOptional() @IsObject() metadata?: Record<string, unknown>;
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date' })
  created_at?: string;
  @IsOptional() @IsString() @MaxLength(255) external_id?: string;
  @IsOptional() @IsDefined() password_hash?: unknown;
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z2-7]{16,128}=*$/i, { message: 'must be a base32 secret of at least 80 bits' })
  totp_secret?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => ImportIdentityDto)
  identities?: ImportIdentityDto[];
  @IsOptional()
  @IsString()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'must be an E.164 phone number' })
  phone_number?: string;
}
