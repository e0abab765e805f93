import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';

/** An empty body (any member is refused as unknown). */
export class NoInteractionFieldsDto {}

export class ConsentDto {
  @ApiProperty({
    type: [String],
    example: ['openid', 'email'],
    description:
      'The scopes the user grants: a subset of the requested ones (`openid` is always kept)',
  })
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  scopes: string[];
}
