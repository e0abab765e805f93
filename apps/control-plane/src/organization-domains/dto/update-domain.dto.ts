import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { DOMAIN_ENROLLMENTS, ROLE_KEY } from '@gatehouse/organizations';
import type { DomainEnrollment } from '@gatehouse/entities';
import { IsRoleKey } from '../../roles/dto/role-rules';

/**
 * An admin's verification without DNS (`status: "verified"` with a `reason`, audited) and/or what
 * the domain gives users whose verified email is at it.
 */
export class UpdateDomainDto {
  @ApiPropertyOptional({
    enum: ['verified'],
    description: 'Verifies the domain without its TXT record; `reason` is then required',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(['verified'])
  status?: 'verified';

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 500,
    description: 'Why the admin verifies it (audited); only with `status`',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, 500)
  reason?: string;

  @ApiPropertyOptional({
    enum: DOMAIN_ENROLLMENTS,
    description:
      'What a user whose verified email is at the (verified) domain gets: nothing, a suggestion to join, or the membership',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(DOMAIN_ENROLLMENTS)
  enrollment?: DomainEnrollment;

  @ApiPropertyOptional({
    type: String,
    pattern: ROLE_KEY.source,
    description: 'A role key of the project, given to users who join through the domain',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsRoleKey()
  default_role?: string;
}
