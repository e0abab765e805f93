import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { TenantScoped } from './scoped-entity';

/** Per-project configuration stored in `projects.settings` (jsonb). */
export interface ProjectSettings {
  default_redirect_url?: string;
  rp_id?: string;
  rp_name?: string;
  require_email_verification?: boolean;
  access_token_ttl_seconds?: number;
  email_verification_url?: string;
  password_reset_url?: string;
  oauth_providers?: Record<string, Record<string, unknown>>;
  /** Hourly SMS budget and allowed countries; absent members take their defaults (`projectSmsSettings`). */
  sms?: { max_per_hour?: number; allowed_countries?: string[] };
  /** The project's OpenID Connect provider (docs/api-contract.md §11); off unless `enabled`. */
  oidc?: {
    enabled?: boolean;
    login_url?: string | null;
    dynamic_registration?: boolean;
    require_pushed_authorization_requests?: boolean;
    allow_sign_up?: boolean;
  };
  /** Lazy password migration (docs/migration.md); the secret is sealed (`secret_encrypted`). */
  password_migration?: {
    enabled?: boolean;
    url?: string;
    timeout_ms?: number;
    secret_encrypted?: string;
  };
  /** What end users may do with organizations (docs/api-contract.md §14). */
  organizations?: { allow_user_create?: boolean };
  /** Custom claims: claim name → template (docs/api-contract.md §14, libs/identity token-claims.ts). */
  token_claims?: Record<string, string>;
  [key: string]: unknown;
}

@Entity('projects')
export class Project extends TenantScoped {
  @Column('text')
  name: string;

  /** UNIQUE in the database. */
  @Column('text')
  publishableKey: string;

  /** At most one console project per tenant (partial unique index in the migration). */
  @Column('boolean', { default: false })
  isConsole: boolean;

  @Column('jsonb', { default: [] })
  allowedOrigins: string[];

  @Column('jsonb', { default: [] })
  redirectUrls: string[];

  @Column('jsonb', { default: {} })
  settings: ProjectSettings;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
