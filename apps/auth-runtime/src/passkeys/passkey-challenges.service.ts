import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@gatehouse/crypto';
import { CacheStore, Clock } from '@gatehouse/platform';

/** Challenges live 5 minutes (docs/api-contract.md §5) and are used once. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

export type PasskeyChallenge =
  | { purpose: 'register'; projectId: string; userId: string; expiresAt: number }
  | { purpose: 'authenticate'; projectId: string; expiresAt: number };

type Issued =
  | { purpose: 'register'; projectId: string; userId: string }
  | { purpose: 'authenticate'; projectId: string };

const key = (challenge: string) => `passkey:challenge:${sha256Hex(challenge)}`;

/**
 * WebAuthn challenges held server-side in the shared cache, keyed by the challenge itself: the
 * `complete` call is tied to its `begin` by the challenge inside `clientDataJSON`, no cookie needed.
 * Consuming is an atomic get-and-delete, so a response can be verified once, on any instance.
 * Expiry is judged by the injectable clock; the cache TTL only cleans up.
 */
@Injectable()
export class PasskeyChallenges {
  constructor(
    private readonly cache: CacheStore,
    private readonly clock: Clock,
  ) {}

  /** Stores `challenge` (base64url of ≥16 random bytes); false only on a collision. */
  async store(challenge: string, issued: Issued): Promise<boolean> {
    const value: PasskeyChallenge = {
      ...issued,
      expiresAt: this.clock.nowMs() + PASSKEY_CHALLENGE_TTL_MS,
    };
    return this.cache.setIfAbsent(key(challenge), JSON.stringify(value), PASSKEY_CHALLENGE_TTL_MS);
  }

  /** Takes the challenge out of the store; null when unknown, already used or expired. */
  async consume(challenge: string): Promise<PasskeyChallenge | null> {
    const raw = await this.cache.getDel(key(challenge));
    if (!raw) return null;
    const stored = JSON.parse(raw) as PasskeyChallenge;
    return stored.expiresAt > this.clock.nowMs() ? stored : null;
  }
}
