import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';

/** `POST /v1/admin/users/{id}/impersonate` (CONTRACT §13). */
export class ImpersonateUserDto {
  @ApiProperty({
    description: 'Why (1–500 characters); kept in the audit event `user.impersonated`',
    example: 'Ticket #4411: checkout fails',
  })
  @IsString()
  @Length(1, 500)
  @Matches(/\S/, { message: 'must not be blank' })
  reason!: string;

  @ApiPropertyOptional({
    description:
      "Where the link lands, signed in: a registered redirect URL of the user's project (default its `default_redirect_url`)",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(2048)
  redirect_url?: string;
}
