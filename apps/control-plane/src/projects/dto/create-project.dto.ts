import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { ProjectFieldsDto } from './project-fields.dto';

export class CreateProjectDto extends ProjectFieldsDto {
  @ApiProperty({ example: 'Acme web app' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  name!: string;
}
