import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { OrganizationSettingsDto } from './create-organization.dto';
import { IsMetadata } from '../../common/metadata';
import { SLUG, SLUG_MAX } from '@gatehouse/organizations';
import { IsNonBlank } from '../../common/dto-rules';

/** Any subset of name, slug and metadata (metadata is replaced as a whole). */
export class UpdateOrganizationDto {
  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsNonBlank(200)
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
