import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, ValidateIf } from 'class-validator';
import { IsMetadata } from '../../common/metadata';
import { SLUG, SLUG_MAX } from '../slug';

/** Any subset of name, slug and metadata (metadata is replaced as a whole). */
export class UpdateOrganizationDto {
  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
  name?: string;

  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, SLUG_MAX)
  @Matches(SLUG, { message: 'must be lower-case letters and digits in words joined by "-"' })
  slug?: string;

  @ApiPropertyOptional({
    description: 'Replaces the whole metadata object (at most 8 KiB as JSON)',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
