import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';

export class SignUpDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiProperty({
    description: '8–128 characters (NFKC), not a common password, not your email or username',
  })
  @IsString()
  @MaxLength(1024)
  password!: string;

  @ApiPropertyOptional({ description: '3–32 of a-z 0-9 _ . - (folded to lower case)' })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{3,32}$/, { message: 'must be 3–32 characters of a-z, 0-9, _, . and -' })
  username?: string;

  @ApiPropertyOptional({ description: 'Free key/value content, at most 8 KiB as JSON' })
  @ValidateIf((_, v) => v !== undefined)
  @IsObject()
  metadata?: Record<string, unknown>;
}
