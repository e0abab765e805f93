import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** A one-time token posted back by the application's page. */
export class TokenDto {
  @ApiProperty({ description: 'The token from the link in the mail' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;
}

/** Tokens we issue are 43 base64url characters (256 bits); anything else cannot be one. */
export const isTokenShape = (t: string) => /^[A-Za-z0-9_-]{43}$/.test(t);
