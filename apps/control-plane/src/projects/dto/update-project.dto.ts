import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { IsOriginList, IsRedirectUrlList } from '../url-rules';
import { ProjectSettingsDto } from './project-settings.dto';

/** Any subset (CONTRACT §6). `settings` merges at its top level; the lists replace the stored ones. */
export class UpdateProjectDto {
  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  name?: string;

  @ApiPropertyOptional({ type: [String] })
  @ValidateIf((_, v) => v !== undefined)
  @IsOriginList()
  allowed_origins?: string[];

  @ApiPropertyOptional({ type: [String] })
  @ValidateIf((_, v) => v !== undefined)
  @IsRedirectUrlList()
  redirect_urls?: string[];

  @ApiPropertyOptional({ type: ProjectSettingsDto })
  @ValidateIf((_, v) => v !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => ProjectSettingsDto)
  settings?: ProjectSettingsDto;
}
