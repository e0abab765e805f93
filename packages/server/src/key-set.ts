import { importJWK, type JWK } from 'jose';
import { GatehouseAuthError } from './errors';

/** The algorithms Gatehouse signs with: ES256 session tokens; RS256 for OpenID Connect clients that ask for it. */
export const ALGORITHMS = ['ES256', 'RS256'] as const;
export type SigningAlgorithm = (typeof ALGORITHMS)[number];

interface Entry {
  alg: SigningAlgorithm;
  key: CryptoKey | Uint8Array;
}

export interface KeySetOptions {
  /** `{authUrl}/v1/auth/jwks.json`. */
  url: string;
  projectKey: string;
  fetch: typeof fetch;
  /** At most one fetch in this many ms when a token names a `kid` the set lacks (forged `kid`s cannot hammer Gatehouse). */
  cooldownMs: number;
  /** The set is fetched again after this many ms, so a revoked signing key stops verifying here too. */
  maxAgeMs: number;
  timeoutMs: number;
  now: () => number;
}

/**
 * The project's public signing keys, imported once per `kid`. A `kid` the set lacks refetches
 * jwks.json (a rotation), at most once per cooldown and one fetch at a time; the whole set is
 * replaced after `maxAgeMs`, in the background while the old set still answers, so keys Gatehouse
 * stopped publishing (revoked) are dropped.
 */
export class KeySet {
  private keys = new Map<string, Entry>();
  private fetchedAt = -Infinity;
  private attemptedAt = -Infinity;
  private inflight: Promise<void> | null = null;

  constructor(private readonly options: KeySetOptions) {}

  /**
   * The key for a token's header; throws `invalid_token` for an unknown `kid` or an algorithm the
   * key is not for. A known key of a fresh set is returned synchronously (no promise on the hot path).
   */
  keyFor(kid: unknown, alg: unknown): CryptoKey | Uint8Array | Promise<CryptoKey | Uint8Array> {
    if (typeof kid === 'string') {
      const entry = this.keys.get(kid);
      if (entry && this.options.now() - this.fetchedAt <= this.options.maxAgeMs)
        return checked(entry, alg);
    }
    return this.keyAfterRefresh(kid, alg);
  }

  private async keyAfterRefresh(kid: unknown, alg: unknown): Promise<CryptoKey | Uint8Array> {
    if (typeof kid !== 'string' || kid.length === 0 || kid.length > 256)
      throw new GatehouseAuthError('invalid_token', 'The token names no valid key id.');
    const now = this.options.now();
    let entry = this.keys.get(kid);
    const stale = now - this.fetchedAt > this.options.maxAgeMs;
    if (
      (stale || !entry) &&
      (this.inflight !== null || now - this.attemptedAt >= this.options.cooldownMs)
    ) {
      const refresh = this.refresh();
      // Stale but known: the answer does not wait for the refresh (nor fail with it).
      if (entry) void refresh.catch(() => undefined);
      else await refresh;
      entry = this.keys.get(kid);
    }
    if (!entry && this.fetchedAt === -Infinity)
      throw new GatehouseAuthError(
        'gatehouse_unavailable',
        'The signing keys have not been fetched from Gatehouse yet.',
      );
    if (!entry)
      throw new GatehouseAuthError(
        'invalid_token',
        'The token is signed by a key this project does not publish.',
      );
    return checked(entry, alg);
  }

  /** One fetch at a time; concurrent callers share it. */
  refresh(): Promise<void> {
    this.inflight ??= this.load().finally(() => (this.inflight = null));
    return this.inflight;
  }

  private async load(): Promise<void> {
    this.attemptedAt = this.options.now();
    let body: unknown;
    try {
      const response = await this.options.fetch(this.options.url, {
        headers: { accept: 'application/json', 'x-service-project-key': this.options.projectKey },
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`jwks.json answered ${response.status}`);
      body = await response.json();
    } catch (err) {
      throw new GatehouseAuthError(
        'gatehouse_unavailable',
        'The signing keys could not be fetched from Gatehouse.',
        { cause: err },
      );
    }
    const list = (body as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(list))
      throw new GatehouseAuthError(
        'gatehouse_unavailable',
        'Gatehouse answered jwks.json without a key list.',
      );
    const next = new Map<string, Entry>();
    for (const jwk of list as JWK[]) {
      const alg = signingAlgorithm(jwk);
      if (!alg || typeof jwk.kid !== 'string') continue;
      // A key already imported is kept as is (importing costs more than a verification).
      const known = this.keys.get(jwk.kid);
      if (known && known.alg === alg) {
        next.set(jwk.kid, known);
        continue;
      }
      try {
        next.set(jwk.kid, { alg, key: await importJWK(publicMembers(jwk), alg) });
      } catch {
        /* a key this runtime cannot import is skipped: tokens it signed are refused */
      }
    }
    this.keys = next;
    this.fetchedAt = this.options.now();
  }
}

function checked(entry: Entry, alg: unknown): CryptoKey | Uint8Array {
  if (entry.alg !== alg)
    throw new GatehouseAuthError('invalid_token', 'The token algorithm does not match its key.');
  return entry.key;
}

/** ES256 for a P-256 EC key, RS256 for an RSA key; anything else (or a mismatching `alg`, or an encryption key) is not ours to verify with. */
function signingAlgorithm(jwk: JWK): SigningAlgorithm | null {
  if (jwk.use !== undefined && jwk.use !== 'sig') return null;
  const alg =
    jwk.kty === 'EC' && jwk.crv === 'P-256' ? 'ES256' : jwk.kty === 'RSA' ? 'RS256' : null;
  if (!alg || (jwk.alg !== undefined && jwk.alg !== alg)) return null;
  return alg;
}

/** Only the public members, so a private member a misconfigured server sent can never make a key that signs. */
function publicMembers(jwk: JWK): JWK {
  return jwk.kty === 'EC'
    ? { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y }
    : { kty: 'RSA', n: jwk.n, e: jwk.e };
}
