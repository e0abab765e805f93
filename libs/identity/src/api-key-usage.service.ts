import { Injectable, Logger } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys/api-keys.repository';

const WRITE_EVERY_MS = 60_000;
const REMEMBERED_KEYS = 10_000;

/**
 * Records that a live API key secret was used (`api_keys.last_used_at`): at most once a minute per
 * key and process, after the answer's work and never delaying or failing it, so a key used on
 * every request costs one small write a minute, not one per request.
 */
@Injectable()
export class ApiKeyUsage {
  private readonly logger = new Logger(ApiKeyUsage.name);
  private readonly written = new Map<string, number>();

  constructor(private readonly apiKeys: ApiKeysRepository) {}

  /** `secretHash`: the SHA-256 of the presented `sk_…` secret (null for a publishable key: ignored). */
  touch(secretHash: string | null): void {
    if (!secretHash) return;
    const now = Date.now();
    if ((this.written.get(secretHash) ?? 0) > now - WRITE_EVERY_MS) return;
    if (this.written.size >= REMEMBERED_KEYS) this.written.clear();
    this.written.set(secretHash, now);
    this.apiKeys
      .recordUse(secretHash)
      .catch((err: unknown) =>
        this.logger.warn(
          `last_used_at not recorded: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
  }
}
