import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class CreateDomainDto {
  @ApiProperty({
    example: 'acme.com',
    maxLength: 253,
    description:
      'A hostname with at least one dot; stored lower-cased, an internationalized name in punycode',
  })
  @IsString()
  @MaxLength(1000)
  domain!: string;
}
