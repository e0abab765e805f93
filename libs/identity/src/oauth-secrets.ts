import type { AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret } from '@gatehouse/crypto';

export const OAUTH_PROVIDERS = ['google', 'github', 'microsoft', 'apple'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/**
 * OAuth provider secrets live in `projects.settings.oauth_providers.<provider>` sealed with
 * AES-GCM: `client_secret_encrypted` (and Apple's `private_key_encrypted`). The control plane
 * seals what an admin writes; the runtime opens it when talking to the provider. Reads through
 * the admin API show only `client_secret_set` / `private_key_set`.
 */
export function sealOAuthSecret(
  config: AppConfig,
  projectId: string,
  provider: string,
  field: 'client_secret' | 'private_key',
  value: string,
): string {
  return encryptSecret(config.auth.encryptionKey, value, `oauth:${projectId}:${provider}:${field}`);
}

export function openOAuthSecret(
  config: AppConfig,
  projectId: string,
  provider: string,
  field: 'client_secret' | 'private_key',
  sealed: string,
): string {
  return decryptSecretString(
    config.auth.encryptionKey,
    sealed,
    `oauth:${projectId}:${provider}:${field}`,
  );
}
