import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import { encryptSecret, hmacSha256, sha256Hex } from '@gatehouse/crypto';
import {
  EventRecorder,
  SessionRevocation,
  type AccessTokensService,
  type ChainStateRow,
  type ProjectKeyMatch,
  type RefreshChainsRepository,
  type Rotation,
  type SessionsRepository,
  type UsersRepository,
} from '@gatehouse/identity';
import type { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { RefreshTokenCodec } from './refresh-token';
import { REFRESH_REUSE_GRACE_MS, SessionsService } from './sessions.service';

/**
 * The decisions of a refresh, with fake repositories: what PostgreSQL answered is given, what the
 * service does with it is checked (which token comes back, what is revoked, what is refused).
 */
describe('SessionsService.refresh decides on what the chain answered', () => {
  const encryptionKey = randomBytes(32);
  const codec = new RefreshTokenCodec(hmacSha256(encryptionKey, 'gatehouse:refresh-token-mac'));
  const now = new Date('2026-11-25T12:00:00Z');
  const key: ProjectKeyMatch = { publishableKey: 'pk_test_0123456789abcdef', secretHash: null };
  const meta = { ip: null, userAgent: null };
  const sessionId = randomUUID();

  let answers: Rotation[];
  let rotateCalls: unknown[];
  let revoked: string[];
  let markedRevoked: string[][];
  let recorded: string[];
  let service: SessionsService;

  beforeEach(() => {
    answers = [];
    rotateCalls = [];
    revoked = [];
    markedRevoked = [];
    recorded = [];
    const next = async (input: unknown) => {
      rotateCalls.push(input);
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      return answer;
    };
    const chains = { rotate: next, state: next } as unknown as RefreshChainsRepository;
    const sessions = {
      revokeOwn: async (_m: EntityManager, _userId: string, id: string) => {
        revoked.push(id);
        return { id };
      },
    } as unknown as SessionsRepository;
    const tokens = {
      issue: async (input: { sessionId: string; authTime: Date }) => ({
        token: `access:${input.sessionId}:${input.authTime.toISOString()}`,
        expiresIn: 900,
        expiresAt: new Date(now.getTime() + 900_000),
      }),
      markRevoked: async (ids: string[]) => void markedRevoked.push(ids),
    } as unknown as AccessTokensService;
    // The recorder's own fan-out of session.revoked, over a fake record.
    const events = Object.assign(new EventRecorder(), {
      record: async (_m: EntityManager, e: { action: string }) => void recorded.push(e.action),
    });
    const dataSource = {
      transaction: async (work: (m: EntityManager) => Promise<unknown>) =>
        work({} as EntityManager),
    } as unknown as DataSource;
    const clock: Clock = { now: () => now, nowMs: () => now.getTime() };
    const config = { auth: { encryptionKey } } as AppConfig;
    service = new SessionsService(
      dataSource,
      sessions,
      {} as UsersRepository,
      chains,
      tokens,
      events,
      new SessionRevocation(sessions, tokens, events, clock),
      clock,
      config,
    );
  });

  const chainState = (over: Partial<ChainStateRow> = {}): ChainStateRow => ({
    session_id: sessionId,
    generation: 3,
    token_hash: 'current-hash',
    token_expires_at: new Date(now.getTime() + 3600_000),
    previous_token_hash: null,
    rotated_at: null,
    successor_token_encrypted: null,
    user_id: randomUUID(),
    project_id: randomUUID(),
    tenant_id: randomUUID(),
    session_expires_at: new Date(now.getTime() + 86400_000),
    session_revoked_at: null,
    user_status: 'active',
    is_admin: false,
    auth_time: new Date('2026-11-25T11:00:00Z'),
    impersonator_id: null,
    org: null,
    claim_sources: null,
    ...over,
  });
  const notRotated = (state: ChainStateRow | null): Rotation => ({
    kind: 'not-rotated',
    state,
    accessTokenTtl: undefined,
    activeKid: 'kid-1',
  });
  const refused = (promise: Promise<unknown>) =>
    promise.then(
      () => 'answered',
      (e: unknown) => (e instanceof ProblemError ? e.slug : String(e)),
    );

  it('rotates a current token: the successor names the next generation, the access token keeps the session auth_time', async () => {
    const presented = codec.issue(sessionId, 3);
    const authTime = new Date('2026-11-25T10:00:00Z');
    answers.push({
      kind: 'rotated',
      row: {
        session_id: sessionId,
        user_id: 'u',
        project_id: 'p',
        tenant_id: 't',
        is_admin: false,
        session_expires_at: new Date(now.getTime() + 86400_000),
        new_expires_at: new Date(now.getTime() + 7 * 86400_000),
        access_token_ttl: 600,
        auth_time: authTime,
        impersonator_id: null,
        org: null,
        claim_sources: null,
        active_kid: 'kid-1',
      },
    });
    const issued = await service.refresh(key, null, presented, meta);
    expect(codec.read(issued.refreshToken)).toEqual({ sessionId, generation: 4 });
    expect(issued.accessToken).toBe(`access:${sessionId}:${authTime.toISOString()}`);
    expect(rotateCalls[0]).toMatchObject({
      sessionId,
      presentedHash: sha256Hex(presented),
      successorGeneration: 4,
      successorHash: sha256Hex(issued.refreshToken),
    });
    expect(revoked).toEqual([]);
  });

  it('refuses a token we never issued without asking the chain to rotate, after judging the key and the origin', async () => {
    answers.push({ kind: 'unknown-project' });
    expect(await refused(service.refresh(key, null, 'x'.repeat(91), meta))).toBe('unauthenticated');
    answers.push({ kind: 'origin-refused' });
    expect(await refused(service.refresh(key, 'https://evil.example', 'not a token', meta))).toBe(
      'forbidden',
    );
    answers.push(notRotated(null));
    expect(await refused(service.refresh(key, null, 'not a token', meta))).toBe('unauthenticated');
    expect(rotateCalls).toEqual([
      { key, origin: null, sessionId: null },
      { key, origin: 'https://evil.example', sessionId: null },
      { key, origin: null, sessionId: null },
    ]);
    expect(revoked).toEqual([]);
  });

  it('refuses the current token of a chain it could not rotate (idle-expired) and a token from the future, revoking nothing', async () => {
    answers.push(notRotated(chainState({ generation: 3 })));
    expect(await refused(service.refresh(key, null, codec.issue(sessionId, 3), meta))).toBe(
      'unauthenticated',
    );
    answers.push(notRotated(chainState({ generation: 3 })));
    expect(await refused(service.refresh(key, null, codec.issue(sessionId, 7), meta))).toBe(
      'unauthenticated',
    );
    expect(revoked).toEqual([]);
  });

  it('refuses every token of a revoked or expired session or a disabled user, revoking nothing more', async () => {
    for (const over of [
      { session_revoked_at: now },
      { session_expires_at: now },
      { user_status: 'disabled' },
    ]) {
      answers.push(notRotated(chainState(over)));
      expect(await refused(service.refresh(key, null, codec.issue(sessionId, 2), meta))).toBe(
        'unauthenticated',
      );
    }
    expect(revoked).toEqual([]);
  });

  it('gives the token rotated last the same successor again within the grace period', async () => {
    const previous = codec.issue(sessionId, 2);
    const successor = codec.issue(sessionId, 3);
    const state = chainState({
      previous_token_hash: sha256Hex(previous),
      rotated_at: new Date(now.getTime() - REFRESH_REUSE_GRACE_MS + 1000),
      successor_token_encrypted: encryptSecret(encryptionKey, successor, sha256Hex(previous)),
    });
    answers.push(notRotated(state));
    const issued = await service.refresh(key, null, previous, meta);
    expect(issued.refreshToken).toBe(successor);
    expect(issued.refreshExpiresAt).toEqual(state.token_expires_at);
    expect(revoked).toEqual([]);
  });

  it('revokes the session for a replay: an older token, or the last rotated one once the grace has passed', async () => {
    const older = codec.issue(sessionId, 1);
    answers.push(notRotated(chainState()));
    expect(await refused(service.refresh(key, null, older, meta))).toBe('unauthenticated');

    const previous = codec.issue(sessionId, 2);
    answers.push(
      notRotated(
        chainState({
          previous_token_hash: sha256Hex(previous),
          rotated_at: new Date(now.getTime() - REFRESH_REUSE_GRACE_MS - 1),
          successor_token_encrypted: encryptSecret(
            encryptionKey,
            codec.issue(sessionId, 3),
            sha256Hex(previous),
          ),
        }),
      ),
    );
    expect(await refused(service.refresh(key, null, previous, meta))).toBe('unauthenticated');
    expect(revoked).toEqual([sessionId, sessionId]);
    expect(markedRevoked).toEqual([[sessionId], [sessionId]]);
    expect(recorded).toEqual(['session.revoked', 'session.revoked']);
  });

  it('treats a token of the previous generation whose hash is not the one rotated last as a replay', async () => {
    answers.push(
      notRotated(
        chainState({
          previous_token_hash: sha256Hex('another token'),
          rotated_at: now,
          successor_token_encrypted: 'sealed',
        }),
      ),
    );
    expect(await refused(service.refresh(key, null, codec.issue(sessionId, 2), meta))).toBe(
      'unauthenticated',
    );
    expect(revoked).toEqual([sessionId]);
  });
});
