import { randomBytes } from 'node:crypto';
import type { AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret, hmacSha256 } from '@gatehouse/crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function webhookSigningKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
}

/**
 * `webhook-signature` value per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`
 * (the secret itself, or its key from `webhookSigningKey`).
 */
export function signWebhook(
  secret: string | Buffer,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = typeof secret === 'string' ? webhookSigningKey(secret) : secret;
  return `v1,${hmacSha256(key, `${id}.${timestampSeconds}.${body}`).toString('base64')}`;
}

/** Webhook secrets are stored sealed with AES-GCM, bound to the webhook's id. */
export function sealWebhookSecret(config: AppConfig, webhookId: string, secret: string): string {
  return encryptSecret(config.auth.encryptionKey, secret, `webhook:${webhookId}`);
}

export function openWebhookSecret(config: AppConfig, webhookId: string, sealed: string): string {
  return decryptSecretString(config.auth.encryptionKey, sealed, `webhook:${webhookId}`);
}
