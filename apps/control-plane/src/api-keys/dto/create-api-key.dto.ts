import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'Backend server' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  name!: string;
}
