import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class ForgotPasswordDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'must be a valid email address' })
  email!: string;
}

export class ResetPasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;

  @ApiProperty({ description: '8–128 characters (NFKC), not a common password, not your email or username' })
  @IsString()
  @MaxLength(1024)
  password!: string;
}
