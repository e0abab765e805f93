import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isId } from '@gatehouse/entities';

/**
 * Refresh tokens (docs/api-contract.md §2): opaque to clients, 256 random bits, stored as a SHA-256 hash.
 * Inside, a token also names its session and its place in the session's rotation chain, sealed by
 * an HMAC under a key of ours:
 *
 *   session id (16 bytes) · generation (4 bytes, big-endian, below 2^31) · secret (32 random bytes) · tag (16 bytes)
 *
 * base64url, 91 characters. The session id lets a rotation find its chain by primary key; the
 * generation tells a replayed old token from one we never issued: a token whose tag checks out
 * was issued by us, so an older generation than the chain's current one is a replay (reuse
 * detection) even though only the last two generations' hashes are stored. Without the key, nobody
 * can make a token that names someone's session, so nobody can revoke a session they do not hold
 * a token of.
 */
const ID_BYTES = 16;
const GENERATION_BYTES = 4;
const SECRET_BYTES = 32;
const TAG_BYTES = 16;
const BODY_BYTES = ID_BYTES + GENERATION_BYTES + SECRET_BYTES;
const TOKEN_BYTES = BODY_BYTES + TAG_BYTES;
/** The chain's `generation` column is a PostgreSQL `integer`. */
const MAX_GENERATION = 0x7fff_ffff;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{91}$/;

export interface RefreshTokenClaims {
  sessionId: string;
  generation: number;
}

export class RefreshTokenCodec {
  /** `macKey`: the key of the tags (derived from ENCRYPTION_KEY by the caller). */
  constructor(private readonly macKey: Buffer) {}

  /** A new token of `sessionId` at `generation` (0 for a session's first token, at most 2^31 − 1). */
  issue(sessionId: string, generation: number): string {
    if (!isId(sessionId) || sessionId !== sessionId.toLowerCase())
      throw new TypeError('session id must be a lower-case UUID');
    if (!Number.isInteger(generation) || generation < 0 || generation > MAX_GENERATION)
      throw new RangeError('generation out of range');
    const token = Buffer.allocUnsafe(TOKEN_BYTES);
    token.write(sessionId.replaceAll('-', ''), 0, ID_BYTES, 'hex');
    token.writeUInt32BE(generation, ID_BYTES);
    randomBytes(SECRET_BYTES).copy(token, ID_BYTES + GENERATION_BYTES);
    this.tag(token.subarray(0, BODY_BYTES)).copy(token, BODY_BYTES);
    return token.toString('base64url');
  }

  /** What a presented token names, or null when it is not a token we issued (malformed or tag wrong). */
  read(token: string): RefreshTokenClaims | null {
    if (!TOKEN_PATTERN.test(token)) return null;
    const raw = Buffer.from(token, 'base64url');
    // 91 characters decode to 68 bytes; a last character with stray low bits would re-encode differently.
    if (raw.length !== TOKEN_BYTES || raw.toString('base64url') !== token) return null;
    if (!timingSafeEqual(this.tag(raw.subarray(0, BODY_BYTES)), raw.subarray(BODY_BYTES)))
      return null;
    const hex = raw.toString('hex', 0, ID_BYTES);
    return {
      sessionId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
      generation: raw.readUInt32BE(ID_BYTES),
    };
  }

  private tag(body: Buffer): Buffer {
    return createHmac('sha256', this.macKey).update(body).digest().subarray(0, TAG_BYTES);
  }
}
