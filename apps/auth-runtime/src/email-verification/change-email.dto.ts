import { ApiProperty } from '@nestjs/swagger';
import { IsEmailAddress } from '@gatehouse/identity';

export class ChangeEmailDto {
  @ApiProperty({ example: 'ada@new.example.com' })
  @IsEmailAddress()
  email!: string;
}
