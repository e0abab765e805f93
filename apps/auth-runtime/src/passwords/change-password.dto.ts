import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  current_password!: string;

  @ApiProperty({
    description: '8–128 characters (NFKC), not a common password, not your email or username',
  })
  @IsString()
  @MaxLength(1024)
  new_password!: string;
}
