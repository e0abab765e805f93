import type { AppConfig } from '@gatehouse/config';
import { generateSigningKey, privateKeyFromPem, publicKeyFromJwk } from '@gatehouse/crypto';
import { Clock, MemoryCacheStore } from '@gatehouse/platform';
import { AccessTokensService } from './access-tokens.service';
import type { SessionsRepository } from './sessions/sessions.repository';
import type { SigningKeysService } from './signing-keys.service';

class MovableClock extends Clock {
  constructor(public ms: number) {
    super();
  }
  override now(): Date {
    return new Date(this.ms);
  }
}

const PROJECT = '11111111-1111-4111-8111-111111111111';
const TENANT = '22222222-2222-4222-8222-222222222222';
const OTHER_PROJECT = '33333333-3333-4333-8333-333333333333';

/** The service with an in-memory cache and one signing key whose status the test can change. */
function setup() {
  const generated = generateSigningKey();
  const entry = {
    key: publicKeyFromJwk(generated.publicJwk),
    projectId: PROJECT,
    tenantId: TENANT,
    status: 'active' as string,
    retireAfter: null,
    loadedAt: 0,
  };
  const keys = {
    activeKey: async () => ({
      kid: generated.kid,
      key: privateKeyFromPem(generated.privateKeyPem),
    }),
    verifyingKey: async (kid: string) =>
      kid === generated.kid && entry.status === 'active' ? entry : null,
    revokedKidsSince: async () => [],
  } as unknown as SigningKeysService;
  const clock = new MovableClock(Date.UTC(2026, 10, 21, 12));
  const cache = new MemoryCacheStore(() => clock.nowMs());
  const sessions = { revokedSince: async () => [] } as unknown as SessionsRepository;
  const config = { http: { publicAuthUrl: 'http://auth.test' } } as AppConfig;
  const tokens = new AccessTokensService(keys, cache, sessions, clock, config);
  const issue = (sessionId = 'session-1') =>
    tokens.issue({
      tenantId: TENANT,
      projectId: PROJECT,
      userId: 'user-1',
      sessionId,
      isAdmin: false,
      ttlSeconds: 60,
    });
  return { tokens, entry, clock, issue };
}

describe('AccessTokensService.verify with its cache of verified tokens', () => {
  it('checks a signature once per token text: a hit skips it, a changed text does not', async () => {
    const { tokens, entry, issue } = setup();
    const { token } = await issue();
    expect((await tokens.verify(token, PROJECT))?.sid).toBe('session-1');
    // Swap the public key: only a token already verified still passes, because it is not re-checked.
    entry.key = publicKeyFromJwk(generateSigningKey().publicJwk);
    expect((await tokens.verify(token, PROJECT))?.sid).toBe('session-1');
    const { token: fresh } = await issue('session-2');
    expect(await tokens.verify(fresh, PROJECT)).toBeNull();
    const [h, p, sig] = token.split('.');
    const flipped = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await tokens.verify(flipped, PROJECT)).toBeNull();
  });

  it('hands out cached claims that cannot be changed by one request for the next', async () => {
    const { tokens, issue } = setup();
    const { token } = await issue();
    const first = await tokens.verify(token, PROJECT);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => Object.assign(first as object, { sub: 'someone-else' })).toThrow(TypeError);
    expect((await tokens.verify(token, PROJECT))?.sub).toBe('user-1');
  });

  it('refuses a cached token once it has expired', async () => {
    const { tokens, clock, issue } = setup();
    const { token } = await issue();
    expect(await tokens.verify(token, PROJECT)).not.toBeNull();
    clock.ms += 59_000;
    expect(await tokens.verify(token, PROJECT)).not.toBeNull();
    clock.ms += 1_000;
    expect(await tokens.verify(token, PROJECT)).toBeNull();
  });

  it('refuses a cached token whose key is no longer accepted', async () => {
    const { tokens, entry, issue } = setup();
    const { token } = await issue();
    expect(await tokens.verify(token, PROJECT)).not.toBeNull();
    entry.status = 'revoked';
    expect(await tokens.verify(token, PROJECT)).toBeNull();
  });

  it('refuses a cached token of a revoked session', async () => {
    const { tokens, issue } = setup();
    await tokens.reloadRevocations();
    const { token } = await issue();
    expect(await tokens.verify(token, PROJECT)).not.toBeNull();
    await tokens.markRevoked(['session-1']);
    expect(await tokens.verify(token, PROJECT)).toBeNull();
  });

  it('refuses a cached token presented for another project', async () => {
    const { tokens, issue } = setup();
    const { token } = await issue();
    expect(await tokens.verify(token)).not.toBeNull();
    expect(await tokens.verify(token, OTHER_PROJECT)).toBeNull();
    expect(await tokens.verify(token, PROJECT)).not.toBeNull();
  });
});

describe('AccessTokensService.issue', () => {
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as {
      iat: number;
      auth_time: number;
      exp: number;
    };

  it('a token minted for a proof just made is issued at the proof instant: auth_time = iat even when the clock has crossed a second since', async () => {
    const { tokens, clock } = setup();
    const proof = new Date(clock.ms + 999);
    clock.ms += 1_001; // the session was written, the events recorded: the next second has begun
    const { token } = await tokens.issue({
      tenantId: TENANT,
      projectId: PROJECT,
      userId: 'u',
      sessionId: 's',
      isAdmin: false,
      ttlSeconds: 60,
      authTime: proof,
      issuedAt: proof,
    });
    const claims = claimsOf(token);
    expect(claims.auth_time).toBe(claims.iat);
    expect(claims.exp).toBe(claims.iat + 60);
    // Without issuedAt (a refresh), iat is now and auth_time stays the old proof.
    const refreshed = claimsOf(
      (
        await tokens.issue({
          tenantId: TENANT,
          projectId: PROJECT,
          userId: 'u',
          sessionId: 's',
          isAdmin: false,
          ttlSeconds: 60,
          authTime: proof,
        })
      ).token,
    );
    expect(refreshed.iat).toBe(Math.floor(clock.ms / 1000));
    expect(refreshed.auth_time).toBe(Math.floor(proof.getTime() / 1000));
  });
});
