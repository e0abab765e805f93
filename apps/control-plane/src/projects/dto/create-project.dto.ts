import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { IsOriginList, IsRedirectUrlList } from '../url-rules';
import { ProjectSettingsDto } from './project-settings.dto';

export class CreateProjectDto {
  @ApiProperty({ example: 'Acme web app' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  name!: string;

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
