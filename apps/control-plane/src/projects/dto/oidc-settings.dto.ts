import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, ValidateIf } from 'class-validator';
import { IsRedirectUrl } from '../url-rules';

/**
 * `settings.oidc` (docs/api-contract.md §11): the project's OpenID Connect provider.
 * One top-level settings key, replaced whole by a PATCH; a member left out takes its default.
 * `login_url` must also be one of the project's redirect URLs, which the service checks once the
 * PATCH is applied (the same PATCH may add it to `redirect_urls`).
 */
export class OidcSettingsDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Whether the provider answers; discovery of a disabled one is 404',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    default: null,
    example: 'https://app.example.com/login',
    description:
      "The application's page that completes sign-in and consent (`?interaction=<uid>`); one of the project's redirect_urls. Null: the hosted pages",
  })
  @IsOptional()
  @IsRedirectUrl()
  login_url?: string | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Whether RFC 7591 dynamic client registration is open',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  dynamic_registration?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'Whether every client must push its authorization requests first (RFC 9126 §5); a client can also be required to alone',
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  require_pushed_authorization_requests?: boolean;

  @ApiPropertyOptional({
    default: true,
    description:
      "Whether the hosted sign-in page offers 'Create an account' (and honours `prompt=create`)",
  })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  allow_sign_up?: boolean;
}
