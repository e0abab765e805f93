import { ApiProperty } from '@nestjs/swagger';
import { ProjectFieldsDto } from './project-fields.dto';
import { IsNonBlank } from '../../common/dto-rules';

export class CreateProjectDto extends ProjectFieldsDto {
  @ApiProperty({ example: 'Acme web app' })
  @IsNonBlank(100)
  name!: string;
}
