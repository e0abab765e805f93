import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { IsProviderUrl } from '../url-rules';

/** RFC 6749 scope-token. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/;

/** `settings.oauth_providers.<provider>` (docs/api-contract.md §5, §10). `client_secret` is write-only. */
export class OAuthProviderDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 512)
  client_id?: string;

  @ApiPropertyOptional({
    type: String,
    description:
      'Write-only; reads show `client_secret_set`. Omitted keeps the stored secret, null clears it.',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  client_secret?: string | null;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(SCOPE, {
    each: true,
    message: 'each scope must be a non-empty scope token without spaces',
  })
  scopes?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsProviderUrl()
  issuer?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsProviderUrl()
  authorization_url?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsProviderUrl()
  token_url?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsProviderUrl()
  userinfo_url?: string;
}

export class GithubProviderDto extends OAuthProviderDto {
  @ApiPropertyOptional({ description: 'Default `{userinfo_url}/emails`' })
  @IsOptional()
  @IsProviderUrl()
  emails_url?: string;
}

export class AppleProviderDto extends OAuthProviderDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,64}$/, { message: 'must be 1–64 letters and digits' })
  team_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,64}$/, { message: 'must be 1–64 letters and digits' })
  key_id?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'PKCS#8 PEM; write-only, reads show `private_key_set`',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @Length(1, 8192)
  private_key?: string | null;
}

/** Only google, github, microsoft and apple; any other key is refused. A provider set to null is removed. */
export class OAuthProvidersDto {
  @ApiPropertyOptional({ type: OAuthProviderDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OAuthProviderDto)
  google?: OAuthProviderDto | null;

  @ApiPropertyOptional({ type: GithubProviderDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GithubProviderDto)
  github?: GithubProviderDto | null;

  @ApiPropertyOptional({ type: OAuthProviderDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OAuthProviderDto)
  microsoft?: OAuthProviderDto | null;

  @ApiPropertyOptional({ type: AppleProviderDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AppleProviderDto)
  apple?: AppleProviderDto | null;
}
