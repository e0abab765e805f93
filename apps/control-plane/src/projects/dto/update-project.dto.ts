import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, ValidateIf } from 'class-validator';
import { ProjectFieldsDto } from './project-fields.dto';

/** Any subset (docs/api-contract.md §6). `settings` merges at its top level; the lists replace the stored ones. */
export class UpdateProjectDto extends ProjectFieldsDto {
  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  name?: string;
}
