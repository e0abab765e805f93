import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

export class ForgotPasswordDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({
    description:
      "Where the mailed link goes (with `?token=`): one of the project's redirect URLs (the hosted sign-in page for a project whose OpenID Connect provider is on). Default: `settings.password_reset_url`, else the default redirect URL",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(2048)
  redirect_url?: string;
}

export class ResetPasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;

  @ApiProperty({
    description: '8–128 characters (NFKC), not a common password, not your email or username',
  })
  @IsString()
  @MaxLength(1024)
  password!: string;
}
