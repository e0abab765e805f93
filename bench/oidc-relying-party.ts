import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { loadConfig } from '@gatehouse/config';
import { Project } from '@gatehouse/entities';
import { createIdentityContext, OAuthClientsRepository } from '@gatehouse/identity';
import type { Api } from './client';
import type { BenchEnv, Seeded } from './seed';

/**
 * A relying party of the seeded project's OpenID Connect provider, for the benches that load its
 * token endpoint (bench/oidc-token.ts, bench/soak.ts): the client, and authorization codes minted
 * the way a user gets them.
 */

/** The relying party's callback: registered, never listened on (the code is read from the redirect). */
export const CALLBACK = 'http://127.0.0.1:5599/callback';
/** What a typical server-side relying party asks for; first-party, so no consent and a refresh token. */
const SCOPE = 'openid email profile offline_access';
export const REFRESH_TOKEN_RE = /"refresh_token":"([^"]+)"/;

export interface RelyingParty {
  issuer: string;
  clientId: string;
  /** `Authorization: Basic …` of client_secret_basic, the default auth method of a client. */
  basic: string;
}

/**
 * Turns the seeded project into an OIDC one, as `PATCH /v1/admin/projects/{id}` with
 * `settings.oidc.enabled: true` and `POST …/oauth-clients` with `first_party: true` would (the
 * same repository writes the client; the secret is kept as its SHA-256).
 */
export async function oidcClient(
  env: BenchEnv,
  seeded: Seeded,
): Promise<{ clientId: string; secret: string }> {
  const config = loadConfig({
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    ENCRYPTION_KEY: env.encryptionKey,
    BCRYPT_COST: String(env.bcryptCost),
    LOG_LEVEL: 'error',
  });
  const ctx = await createIdentityContext(config);
  try {
    const dataSource = ctx.get(DataSource);
    const clients = ctx.get(OAuthClientsRepository);
    return await dataSource.transaction(async (manager) => {
      await manager.getRepository(Project).update(seeded.projectId, {
        settings: { oidc: { enabled: true } },
        redirectUrls: [CALLBACK],
      });
      const { client, secret } = await clients.create(manager, {
        tenantId: seeded.tenantId,
        projectId: seeded.projectId,
        name: 'Bench relying party',
        redirectUris: [CALLBACK],
        postLogoutRedirectUris: [],
        grantTypes: ['authorization_code', 'refresh_token'],
        tokenEndpointAuthMethod: 'client_secret_basic',
        scopes: ['openid', 'profile', 'email', 'offline_access'],
        firstParty: true,
        idTokenSignedResponseAlg: 'ES256',
      });
      if (!secret) throw new Error('the client was made without a secret');
      return { clientId: client.clientId, secret };
    });
  } finally {
    await ctx.close();
  }
}

export interface MintedCode {
  code: string;
  verifier: string;
  mintedAt: number;
}

/** A browser's cookie jar over fetch (redirects followed by hand), as test/support/oidc-stack.ts's Browser. */
async function browse(
  url: string,
  jar: Map<string, string>,
): Promise<{ status: number; location: string | null }> {
  const res = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    signal: AbortSignal.timeout(15_000),
  });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  await res.arrayBuffer();
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location, url).href : null };
}

/**
 * One authorization code, the way a user gets one: the authorization request (code + PKCE S256)
 * → the login page's `?interaction=` → `POST /v1/auth/oidc/interactions/{uid}/complete` with a
 * signed-in session's bearer token → the browser follows `redirect_to` with its cookies → the
 * redirect to the callback carries the code. Each call is a new browser, so a new provider session
 * and a new grant (one code, one grant, one refresh chain).
 */
export async function mintCode(
  api: Api,
  rp: RelyingParty,
  accessToken: string,
): Promise<MintedCode> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const authorize = new URL(`${rp.issuer}/authorize`);
  const params = {
    client_id: rp.clientId,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: SCOPE,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
  };
  for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
  const jar = new Map<string, string>();
  const first = await browse(authorize.href, jar);
  const uid = first.location ? new URL(first.location).searchParams.get('interaction') : null;
  if (!uid)
    throw new Error(
      `the authorization request answered ${first.status} → ${first.location ?? 'no redirect'}`,
    );
  const done = await fetch(`${api.baseUrl}/v1/auth/oidc/interactions/${uid}/complete`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-project-key': api.projectKey,
      authorization: `Bearer ${accessToken}`,
    },
    body: '{}',
    signal: AbortSignal.timeout(15_000),
  });
  const completed = (await done.json()) as { redirect_to?: string };
  if (done.status !== 200 || !completed.redirect_to)
    throw new Error(
      `completing the interaction answered ${done.status} ${JSON.stringify(completed).slice(0, 200)}`,
    );
  let next = completed.redirect_to;
  for (let hop = 0; hop < 5; hop++) {
    const r = await browse(next, jar);
    if (!r.location)
      throw new Error(`resuming the authorization answered ${r.status} without a redirect`);
    if (r.location.startsWith(`${CALLBACK}?`)) {
      const back = new URL(r.location);
      const code = back.searchParams.get('code');
      if (!code || back.searchParams.get('state') !== state)
        throw new Error(`the callback carried no code: ${back.search.slice(0, 200)}`);
      return { code, verifier, mintedAt: performance.now() };
    }
    if (!r.location.startsWith(api.baseUrl) || r.location.includes('/pages/'))
      throw new Error(`the authorization ended at ${r.location}`);
    next = r.location;
  }
  throw new Error('too many redirects after the interaction');
}

export const tokenHeaders = (rp: RelyingParty) => ({
  'content-type': 'application/x-www-form-urlencoded',
  authorization: rp.basic,
});

export function relyingParty(
  base: string,
  seeded: Seeded,
  client: { clientId: string; secret: string },
): RelyingParty {
  return {
    issuer: `${base}/v1/projects/${seeded.projectId}`,
    clientId: client.clientId,
    basic: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`).toString('base64')}`,
  };
}
