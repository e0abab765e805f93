import { ApiProperty } from '@nestjs/swagger';
import { IsUUID, ValidateIf } from 'class-validator';

/** `POST /v1/auth/organizations/active`: the organization the session's tokens speak for, or null for none. */
export class ActiveOrganizationDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  @ValidateIf((_: object, v: unknown) => v !== null)
  @IsUUID('all', { message: 'must be an organization id or null' })
  organization_id!: string | null;
}
