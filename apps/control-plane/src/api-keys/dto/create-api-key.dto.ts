import { ApiProperty } from '@nestjs/swagger';
import { IsNonBlank } from '../../common/dto-rules';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'Backend server' })
  @IsNonBlank(100)
  name!: string;
}
