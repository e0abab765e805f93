import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsObject,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsMetadata } from '../../common/metadata';
import { SLUG, SLUG_MAX } from '@gatehouse/organizations';
import { IsNonBlank } from '../../common/dto-rules';

/** `settings` of an organization: every member optional, an omitted one keeps its value. */
export class OrganizationSettingsDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Members without a second factor cannot make it active (403 mfa-required)',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  require_mfa?: boolean;
}

export class CreateOrganizationDto {
  @ApiProperty({ description: 'The project the organization belongs to' })
  @IsString()
  @MaxLength(64)
  project_id!: string;

  @ApiProperty({ example: 'Acme Inc.' })
  @IsNonBlank(200)
  name!: string;

  @ApiPropertyOptional({
    description: 'Unique in the project; derived from the name when omitted',
    example: 'acme-inc',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, SLUG_MAX)
  @Matches(SLUG, { message: 'must be lower-case letters and digits in words joined by "-"' })
  slug?: string;

  @ApiPropertyOptional({ description: 'Free key/value content, at most 8 KiB as JSON' })
  @ValidateIf((_, v) => v !== undefined)
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: OrganizationSettingsDto,
    description: 'Its policies; given members replace theirs, others stay',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationSettingsDto)
  settings?: OrganizationSettingsDto;
}
