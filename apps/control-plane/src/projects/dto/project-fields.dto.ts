import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateIf, ValidateNested } from 'class-validator';
import { IsOriginList, IsRedirectUrlList } from '../url-rules';
import { ProjectSettingsDto } from './project-settings.dto';

/** The fields a project is created with and updated by, but its name (required at creation only). */
export class ProjectFieldsDto {
  @ApiPropertyOptional({ type: [String], example: ['https://app.example.com'] })
  @ValidateIf((_, v) => v !== undefined)
  @IsOriginList()
  allowed_origins?: string[];

  @ApiPropertyOptional({ type: [String], example: ['https://app.example.com/callback'] })
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
