import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Project } from '@gatehouse/entities';
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS,
  projectOidcSettings,
  projectPasswordMigrationSettings,
  projectSmsSettings,
} from '@gatehouse/identity';
import { PaginationResponse } from '@gatehouse/http';

/** What a project that never set a key shows; every key of docs/api-contract.md §6's settings is always present. */
const SETTINGS_DEFAULTS = {
  default_redirect_url: null,
  rp_id: null,
  rp_name: null,
  require_email_verification: false,
  access_token_ttl_seconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  reauthentication_max_age_seconds: DEFAULT_REAUTHENTICATION_MAX_AGE_SECONDS,
};

/** `settings.oauth_providers.<provider>` as read back: the write-only secrets show as `*_set`. */
class OAuthProviderResponse {
  @ApiPropertyOptional() enabled?: boolean;
  @ApiPropertyOptional() client_id?: string;
  @ApiProperty({ description: 'Whether a client secret is stored (it is write-only)' })
  client_secret_set!: boolean;
  @ApiPropertyOptional({ type: [String] }) scopes?: string[];
  @ApiPropertyOptional() issuer?: string;
  @ApiPropertyOptional() authorization_url?: string;
  @ApiPropertyOptional() token_url?: string;
  @ApiPropertyOptional() userinfo_url?: string;
}

class GithubProviderResponse extends OAuthProviderResponse {
  @ApiPropertyOptional() emails_url?: string;
}

class AppleProviderResponse extends OAuthProviderResponse {
  @ApiPropertyOptional() team_id?: string;
  @ApiPropertyOptional() key_id?: string;
  @ApiPropertyOptional({
    enum: [true],
    description: 'Present when a private key is stored (it is write-only)',
  })
  private_key_set?: boolean;
}

/** `settings.oauth_providers`: the configured providers only. */
class OAuthProvidersResponse {
  @ApiPropertyOptional({ type: OAuthProviderResponse }) google?: OAuthProviderResponse;
  @ApiPropertyOptional({ type: GithubProviderResponse }) github?: GithubProviderResponse;
  @ApiPropertyOptional({ type: OAuthProviderResponse }) microsoft?: OAuthProviderResponse;
  @ApiPropertyOptional({ type: AppleProviderResponse }) apple?: AppleProviderResponse;
}

/** `settings.sms` with each absent member at its default. */
class ProjectSmsSettingsResponse {
  @ApiProperty({
    type: 'integer',
    description: 'SMS the project may send in an hour, all users together',
  })
  max_per_hour!: number;
  @ApiProperty({
    type: [String],
    example: ['FR', 'BE'],
    description: 'ISO 3166-1 alpha-2 codes, or `["*"]` for any country',
  })
  allowed_countries!: string[];
}

/** `settings.oidc` with each absent member at its default (docs/api-contract.md §11). */
class ProjectOidcSettingsResponse {
  @ApiProperty({ description: "Whether the project's OpenID Connect provider answers" })
  enabled!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The application's page that completes sign-in and consent; null: the hosted pages",
  })
  login_url!: string | null;
  @ApiProperty({ description: 'Whether RFC 7591 dynamic client registration is open' })
  dynamic_registration!: boolean;
  @ApiProperty({
    description: 'Whether every client must push its authorization requests first (RFC 9126)',
  })
  require_pushed_authorization_requests!: boolean;
  @ApiProperty({ description: "Whether the hosted sign-in page offers 'Create an account'" })
  allow_sign_up!: boolean;
}

/** `settings.password_migration` as read: the secret is write-only (`secret_set`). */
class PasswordMigrationSettingsResponse {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, nullable: true }) url!: string | null;
  @ApiProperty({ type: 'integer' }) timeout_ms!: number;
  @ApiProperty({ description: 'Whether a signing secret is stored (it is write-only)' })
  secret_set!: boolean;
}

/** A project's `settings` (docs/api-contract.md §6): unset keys show their defaults; the mail pages only when set. */
class ProjectSettingsResponse {
  @ApiProperty({ type: String, nullable: true }) default_redirect_url!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'WebAuthn relying party id' }) rp_id!:
    string | null;
  @ApiProperty({ type: String, nullable: true }) rp_name!: string | null;
  @ApiProperty() require_email_verification!: boolean;
  @ApiProperty({ type: 'integer' }) access_token_ttl_seconds!: number;
  @ApiProperty({ type: 'integer' }) reauthentication_max_age_seconds!: number;
  @ApiPropertyOptional({ description: 'Page the verification mail links to' })
  email_verification_url?: string;
  @ApiPropertyOptional({ description: 'Page the reset mail links to' }) password_reset_url?: string;
  @ApiPropertyOptional({ description: 'Page the invitation mail links to' })
  invitation_url?: string;
  @ApiProperty({ type: ProjectSmsSettingsResponse }) sms!: ProjectSmsSettingsResponse;
  @ApiProperty({ type: ProjectOidcSettingsResponse }) oidc!: ProjectOidcSettingsResponse;
  @ApiProperty({ type: PasswordMigrationSettingsResponse })
  password_migration!: PasswordMigrationSettingsResponse;
  @ApiProperty({ type: OAuthProvidersResponse }) oauth_providers!: OAuthProvidersResponse;
  @ApiPropertyOptional({
    type: 'object',
    properties: { allow_user_create: { type: 'boolean' } },
    description: 'What end users may do with organizations; only when set',
  })
  organizations?: { allow_user_create?: boolean };
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Custom claims: claim name → template; only when set',
  })
  token_claims?: Record<string, string>;
}

/** Project resource (docs/api-contract.md §6); OAuth client secrets are write-only and show as `client_secret_set`. */
export class ProjectResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The `pk_…` key clients send as `X-Service-Project-Key`' })
  publishable_key!: string;
  @ApiProperty({ type: [String], example: ['https://app.example.com'] }) allowed_origins!: string[];
  @ApiProperty({ type: [String], example: ['https://app.example.com/callback'] })
  redirect_urls!: string[];
  @ApiProperty({ type: ProjectSettingsResponse }) settings!: ProjectSettingsResponse;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/projects`, newest first. */
export class ProjectListResponse {
  @ApiProperty({ type: [ProjectResponse] }) projects!: ProjectResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

function migrationSettings(p: Project): PasswordMigrationSettingsResponse {
  const { secret_encrypted, ...rest } = projectPasswordMigrationSettings(p.settings);
  return { ...rest, secret_set: secret_encrypted !== null };
}

export function toProjectResponse(p: Project): ProjectResponse {
  const providers = Object.fromEntries(
    Object.entries(p.settings.oauth_providers ?? {}).map(([name, cfg]) => {
      const { client_secret_encrypted, private_key_encrypted, ...rest } = cfg;
      return [
        name,
        {
          ...rest,
          client_secret_set: Boolean(client_secret_encrypted),
          ...(private_key_encrypted ? { private_key_set: true } : {}),
        },
      ];
    }),
  );
  return {
    id: p.id,
    name: p.name,
    publishable_key: p.publishableKey,
    allowed_origins: p.allowedOrigins,
    redirect_urls: p.redirectUrls,
    settings: {
      ...SETTINGS_DEFAULTS,
      ...p.settings,
      sms: projectSmsSettings(p.settings),
      oidc: projectOidcSettings(p.settings),
      password_migration: migrationSettings(p),
      oauth_providers: providers,
    },
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
