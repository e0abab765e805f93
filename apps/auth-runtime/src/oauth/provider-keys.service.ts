import { Inject, Injectable } from '@nestjs/common';
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { Clock } from '@gatehouse/platform';
import { fetchProviderJson, ProviderHttpError } from './provider-http';

const DISCOVERY_TTL_MS = 60 * 60_000;
const JWKS_TTL_MS = 60 * 60_000;
/** A key id we do not know triggers a refetch, at most this often per JWKS URL. */
const JWKS_REFETCH_MIN_MS = 30_000;
const MAX_CACHED_DOCUMENTS = 500;

export interface DiscoveryDocument {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
}

interface Cached<T> {
  value: T;
  fetchedAt: number;
}

export interface VerificationKey {
  key: KeyObject;
  kid: string | null;
  alg: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Identity providers' public documents: OpenID discovery and JWKS, fetched with the bounded HTTP
 * client and kept per instance (an hour; a key id we do not know refetches the key set, rate-bound
 * per URL so forged `kid`s cannot turn us into a request amplifier).
 */
@Injectable()
export class ProviderKeysService {
  private readonly discovery = new Map<string, Cached<DiscoveryDocument>>();
  private readonly jwks = new Map<string, Cached<VerificationKey[]>>();

  constructor(
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `{issuer}/.well-known/openid-configuration`; its `issuer` must be the one asked for. */
  async discover(issuer: string): Promise<DiscoveryDocument> {
    const now = this.clock.nowMs();
    const hit = this.discovery.get(issuer);
    if (hit && now - hit.fetchedAt < DISCOVERY_TTL_MS) return hit.value;
    const base = issuer.replace('{tenantid}', 'common').replace(/\/+$/, '');
    const doc = await fetchProviderJson(
      `${base}/.well-known/openid-configuration`,
      this.config.oauth,
    );
    if (!isRecord(doc) || typeof doc.issuer !== 'string')
      throw new ProviderHttpError('invalid discovery document');
    if (
      !issuer.includes('{tenantid}') &&
      doc.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')
    ) {
      throw new ProviderHttpError('discovery document names another issuer');
    }
    const str = (k: string) => (typeof doc[k] === 'string' ? { [k]: doc[k] } : {});
    const value: DiscoveryDocument = {
      issuer: doc.issuer,
      ...str('authorization_endpoint'),
      ...str('token_endpoint'),
      ...str('userinfo_endpoint'),
      ...str('jwks_uri'),
    };
    this.remember(this.discovery, issuer, value, now);
    return value;
  }

  /** The signing keys at `jwksUrl` that could have signed a token with this `kid`. */
  async keysFor(jwksUrl: string, kid: string | null): Promise<VerificationKey[]> {
    const now = this.clock.nowMs();
    const hit = this.jwks.get(jwksUrl);
    const fresh = hit && now - hit.fetchedAt < JWKS_TTL_MS;
    const known = hit ? match(hit.value, kid) : [];
    if (fresh && (known.length > 0 || now - hit.fetchedAt < JWKS_REFETCH_MIN_MS)) return known;
    const doc = await fetchProviderJson(jwksUrl, this.config.oauth);
    const keys = parseJwks(doc);
    this.remember(this.jwks, jwksUrl, keys, now);
    return match(keys, kid);
  }

  private remember<T>(map: Map<string, Cached<T>>, key: string, value: T, now: number): void {
    if (map.size >= MAX_CACHED_DOCUMENTS && !map.has(key)) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(key, { value, fetchedAt: now });
  }
}

function match(keys: VerificationKey[], kid: string | null): VerificationKey[] {
  if (kid !== null) return keys.filter((k) => k.kid === kid);
  return keys.length === 1 ? keys : keys.filter((k) => k.kid === null);
}

/** Public signature keys of a JWKS; private parts, encryption keys and odd entries are ignored. */
export function parseJwks(doc: unknown): VerificationKey[] {
  if (!isRecord(doc) || !Array.isArray(doc.keys)) throw new ProviderHttpError('invalid JWKS');
  const out: VerificationKey[] = [];
  for (const raw of doc.keys as unknown[]) {
    if (!isRecord(raw)) continue;
    if (raw.use !== undefined && raw.use !== 'sig') continue;
    if (raw.kty !== 'RSA' && raw.kty !== 'EC') continue;
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = raw;
    try {
      const key = createPublicKey({ key: pub as JsonWebKey, format: 'jwk' });
      out.push({
        key,
        kid: typeof raw.kid === 'string' ? raw.kid : null,
        alg: typeof raw.alg === 'string' ? raw.alg : null,
      });
    } catch {
      // not a usable public key
    }
  }
  return out;
}
