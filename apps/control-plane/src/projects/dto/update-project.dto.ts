import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { ProjectFieldsDto } from './project-fields.dto';
import { IsNonBlank } from '../../common/dto-rules';

/** Any subset (docs/api-contract.md §6). `settings` merges at its top level; the lists replace the stored ones. */
export class UpdateProjectDto extends ProjectFieldsDto {
  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsNonBlank(100)
  name?: string;
}
