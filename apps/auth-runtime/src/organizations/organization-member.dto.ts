import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsObject,
  IsString,
  Length,
  Matches,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsEmailAddress } from '@gatehouse/identity';
import { ROLE_KEY, SLUG, SLUG_MAX } from '@gatehouse/organizations';

/** `PATCH /v1/auth/organizations/{id}/members/{user_id}`. */
export class UpdateMyMemberDto {
  @ApiProperty({ type: String, example: 'member', pattern: ROLE_KEY.source })
  @IsString()
  @Matches(ROLE_KEY, { message: 'must be a role key: 1-40 lower-case letters, digits, _ or -' })
  role!: string;
}

/** The organization's policies a member with `org:settings:manage` may change. */
export class MyOrganizationSettingsDto {
  @ApiPropertyOptional({
    description: 'Members without a second factor cannot make it active (403 mfa-required)',
  })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsBoolean()
  require_mfa?: boolean;
}

/** `PATCH /v1/auth/organizations/{id}`: the name, slug and policies (metadata is the application's, set by its admins). */
export class UpdateMyOrganizationDto {
  @ApiPropertyOptional({ type: MyOrganizationSettingsDto })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => MyOrganizationSettingsDto)
  settings?: MyOrganizationSettingsDto;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
  name?: string;

  @ApiPropertyOptional({ maxLength: SLUG_MAX, pattern: SLUG.source })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsString()
  @Length(1, SLUG_MAX)
  @Matches(SLUG, { message: 'must be lower-case letters and digits in words joined by "-"' })
  slug?: string;
}

/** `POST /v1/auth/organizations`: the creator becomes its admin. */
export class CreateMyOrganizationDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Acme' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
  name!: string;

  @ApiPropertyOptional({
    maxLength: SLUG_MAX,
    pattern: SLUG.source,
    description: 'Default: made from the name (with a random suffix when taken)',
  })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsString()
  @Length(1, SLUG_MAX)
  @Matches(SLUG, { message: 'must be lower-case letters and digits in words joined by "-"' })
  slug?: string;
}

/** `POST /v1/auth/organizations/{id}/invitations`: the role no more than the inviter's own. */
export class InviteMemberDto {
  @ApiProperty({ example: 'grace@example.com' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({ type: String, default: 'member', pattern: ROLE_KEY.source })
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsString()
  @Matches(ROLE_KEY, { message: 'must be a role key: 1-40 lower-case letters, digits, _ or -' })
  role?: string;
}
