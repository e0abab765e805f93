import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsMetadata } from '../../common/metadata';
import { SLUG, SLUG_MAX } from '../slug';

export class CreateOrganizationDto {
  @ApiProperty({ description: 'The project the organization belongs to' })
  @IsString()
  @MaxLength(64)
  project_id!: string;

  @ApiProperty({ example: 'Acme Inc.' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
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
}
