import type { EntityManager } from 'typeorm';
import type { Clock } from '@gatehouse/platform';
import type { AccessTokensService } from '../access-tokens.service';
import { EventRecorder, type RecordedEvent } from '../event-recorder';
import { SessionRevocation, type SessionRevoker } from './session-revocation';
import type { SessionsRepository } from './sessions.repository';

/**
 * The rules of ending sessions, with fakes: the rows are revoked in the caller's transaction, the
 * revocation cache is marked before that transaction commits (a cache failure rolls it back), and
 * each ended session gets one `session.revoked` with the actor it was given.
 */
describe('SessionRevocation', () => {
  const now = new Date('2026-12-02T05:00:00Z');
  const clock: Clock = { now: () => now, nowMs: () => now.getTime() };
  const manager = { name: 'the caller’s transaction' } as unknown as EntityManager;
  const user = 'user-1';
  const admin: SessionRevoker = {
    tenantId: 'tenant-1',
    projectId: 'project-1',
    actorType: 'admin',
    actorId: 'admin-1',
    meta: { ip: '192.0.2.1', userAgent: 'console' },
  };

  let log: string[];
  let events: RecordedEvent[];
  let live: string[];
  let cacheDown: boolean;
  let revocation: SessionRevocation;

  /** A transaction as the callers run one: committed when the work resolves, rolled back when it throws. */
  const inTransaction = async <T>(work: (m: EntityManager) => Promise<T>): Promise<T> => {
    log.push('begin');
    try {
      const result = await work(manager);
      log.push('commit');
      return result;
    } catch (err) {
      log.push('rollback');
      throw err;
    }
  };

  beforeEach(() => {
    log = [];
    events = [];
    live = ['s1', 's2', 's3'];
    cacheDown = false;
    const inCallersTransaction = (m: EntityManager) => {
      if (m !== manager) throw new Error('not in the caller’s transaction');
    };
    const end = (ids: string[]) => {
      live = live.filter((id) => !ids.includes(id));
      return ids;
    };
    const sessions = {
      revokeOwn: async (
        m: EntityManager,
        userId: string,
        sessionId: string,
        reason: string,
        at: Date,
      ) => {
        inCallersTransaction(m);
        log.push(`revoke ${sessionId} (${reason}, ${at.toISOString()})`);
        return userId === user && live.includes(sessionId) ? { id: end([sessionId])[0] } : null;
      },
      revokeAllOfUser: async (m: EntityManager, userId: string, reason: string) => {
        inCallersTransaction(m);
        log.push(`revoke all (${reason})`);
        return userId === user ? end([...live]) : [];
      },
      revokeAllOfUserExcept: async (
        m: EntityManager,
        userId: string,
        keep: string,
        reason: string,
      ) => {
        inCallersTransaction(m);
        log.push(`revoke all but ${keep} (${reason})`);
        return userId === user ? end(live.filter((id) => id !== keep)) : [];
      },
      unrevokedIds: async (m: EntityManager, userId: string) => {
        inCallersTransaction(m);
        log.push('read unrevoked');
        return userId === user ? [...live] : [];
      },
    } as unknown as SessionsRepository;
    const tokens = {
      markRevoked: async (ids: string[]) => {
        if (cacheDown) throw new Error('cache unavailable');
        log.push(`mark ${ids.join(',')}`);
      },
    } as unknown as AccessTokensService;
    const recorder = Object.assign(new EventRecorder(), {
      record: async (m: EntityManager, e: RecordedEvent) => {
        inCallersTransaction(m);
        log.push(`event ${e.action} ${e.resourceId}`);
        events.push(e);
        return String(events.length);
      },
    });
    revocation = new SessionRevocation(sessions, tokens, recorder, clock);
  });

  const revokedEvent = (id: string, by: SessionRevoker, reason: string): RecordedEvent => ({
    ...by,
    action: 'session.revoked',
    resourceType: 'session',
    resourceId: id,
    data: { session: { id, user_id: user }, reason },
  });

  it('revokes the rows, marks the cache before the commit, and records one session.revoked per session with the actor', async () => {
    expect(
      await inTransaction((m) => revocation.revokeAll(m, user, admin, 'user_disabled')),
    ).toEqual(['s1', 's2', 's3']);
    expect(log).toEqual([
      'begin',
      'revoke all (user_disabled)',
      'mark s1,s2,s3',
      'event session.revoked s1',
      'event session.revoked s2',
      'event session.revoked s3',
      'commit',
    ]);
    expect(events).toEqual(
      ['s1', 's2', 's3'].map((id) => revokedEvent(id, admin, 'user_disabled')),
    );
  });

  it('rolls the revocation back when the cache cannot be marked: nothing is recorded or committed', async () => {
    cacheDown = true;
    await expect(
      inTransaction((m) => revocation.revokeAll(m, user, admin, 'user_disabled')),
    ).rejects.toThrow('cache unavailable');
    expect(log).toEqual(['begin', 'revoke all (user_disabled)', 'rollback']);
    expect(events).toEqual([]);
  });

  it('ends one session of the user, by whoever is named: a second time, or another user’s, ends nothing', async () => {
    const system: SessionRevoker = {
      tenantId: 'tenant-1',
      projectId: 'project-1',
      actorType: 'system',
      actorId: null,
      meta: { ip: null, userAgent: null },
    };
    expect(
      await inTransaction((m) =>
        revocation.revokeOne(m, user, 's2', system, 'refresh_token_reuse'),
      ),
    ).toBe(true);
    expect(
      await inTransaction((m) =>
        revocation.revokeOne(m, user, 's2', system, 'refresh_token_reuse'),
      ),
    ).toBe(false);
    expect(
      await inTransaction((m) =>
        revocation.revokeOne(m, 'user-2', 's1', system, 'refresh_token_reuse'),
      ),
    ).toBe(false);
    expect(log).toEqual([
      'begin',
      `revoke s2 (refresh_token_reuse, ${now.toISOString()})`,
      'mark s2',
      'event session.revoked s2',
      'commit',
      'begin',
      `revoke s2 (refresh_token_reuse, ${now.toISOString()})`,
      'commit',
      'begin',
      `revoke s1 (refresh_token_reuse, ${now.toISOString()})`,
      'commit',
    ]);
    expect(events).toEqual([revokedEvent('s2', system, 'refresh_token_reuse')]);
  });

  it('keeps the session it is told to keep, and the user is the actor of their own change', async () => {
    const self: SessionRevoker = { ...admin, actorType: 'user', actorId: user };
    expect(
      await inTransaction((m) => revocation.revokeAll(m, user, self, 'password_changed', 's2')),
    ).toEqual(['s1', 's3']);
    expect(live).toEqual(['s2']);
    expect(events).toEqual([
      revokedEvent('s1', self, 'password_changed'),
      revokedEvent('s3', self, 'password_changed'),
    ]);
  });

  it('for a user being deleted, revokes no row but marks and announces every unrevoked session', async () => {
    expect(
      await inTransaction((m) => revocation.endWithDeletedUser(m, user, admin, 'user_deleted')),
    ).toEqual(['s1', 's2', 's3']);
    expect(log).toEqual([
      'begin',
      'read unrevoked',
      'mark s1,s2,s3',
      'event session.revoked s1',
      'event session.revoked s2',
      'event session.revoked s3',
      'commit',
    ]);
    expect(events.map((e) => e.data)).toEqual(
      ['s1', 's2', 's3'].map((id) => ({ session: { id, user_id: user }, reason: 'user_deleted' })),
    );
  });

  it('marks and records nothing when nothing was left to end', async () => {
    live = [];
    expect(
      await inTransaction((m) => revocation.revokeAll(m, user, admin, 'admin_revoked')),
    ).toEqual([]);
    expect(events).toEqual([]);
    expect(log).toEqual(['begin', 'revoke all (admin_revoked)', 'commit']);
  });
});
