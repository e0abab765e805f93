import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsNonBlank } from '../../common/dto-rules';

/** `POST /v1/admin/users/{id}/impersonate` (docs/api-contract.md §13). */
export class ImpersonateUserDto {
  @ApiProperty({
    description: 'Why (1–500 characters); kept in the audit event `user.impersonated`',
    example: 'Ticket #4411: checkout fails',
  })
  @IsNonBlank(500)
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
