import type { AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret } from '@gatehouse/crypto';
import type { ProjectSettings } from '@gatehouse/entities';

/** `settings.password_migration` of a project (docs/migration.md), every member present. */
export interface ProjectPasswordMigrationSettings {
  enabled: boolean;
  /** The old system's endpoint: `POST {email, password}` → 200 `{user}` when the password is right. */
  url: string | null;
  timeout_ms: number;
  /** The signing secret, sealed; null when none is set (the call is then not made). */
  secret_encrypted: string | null;
}

export const DEFAULT_PASSWORD_MIGRATION_TIMEOUT_MS = 5000;

/** Off unless `enabled` is true and a URL and a secret are set. */
export function projectPasswordMigrationSettings(
  settings: ProjectSettings,
): ProjectPasswordMigrationSettings {
  const m: Record<string, unknown> =
    settings.password_migration && typeof settings.password_migration === 'object'
      ? settings.password_migration
      : {};
  return {
    enabled: m.enabled === true,
    url: typeof m.url === 'string' ? m.url : null,
    timeout_ms:
      typeof m.timeout_ms === 'number' ? m.timeout_ms : DEFAULT_PASSWORD_MIGRATION_TIMEOUT_MS,
    secret_encrypted: typeof m.secret_encrypted === 'string' ? m.secret_encrypted : null,
  };
}

const aad = (projectId: string) => `password-migration:${projectId}`;

/** The signing secret is write-only: sealed by the control plane, opened by the runtime for each call. */
export function sealMigrationSecret(config: AppConfig, projectId: string, secret: string): string {
  return encryptSecret(config.auth.encryptionKey, secret, aad(projectId));
}

export function openMigrationSecret(config: AppConfig, projectId: string, sealed: string): string {
  return decryptSecretString(config.auth.encryptionKey, sealed, aad(projectId));
}
