import { randomUUID } from 'node:crypto';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import type { User } from '@gatehouse/entities';
import type {
  EventRecorder,
  OAuthIdentitiesRepository,
  ResolvedProject,
  UsersRepository,
} from '@gatehouse/identity';
import type { Clock } from '@gatehouse/platform';
import type { AccountClaimsService } from '../claims/account-claims.service';
import type { UserEvents } from '../sign-in/user-events';
import { OAuthAccountsService } from './oauth-accounts.service';
import { OAuthFailure } from './oauth-failure';
import type { ProviderIdentity } from './provider-identity';

type Identity = { id: string; userId: string; provider: string; subject: string };

/**
 * Find, link or create, with fake repositories: which user a provider's identity signs in to, and
 * when the provider's word claims or merely verifies an account (docs/oauth.md, docs/security.md).
 */
describe('OAuthAccountsService.resolveUser decides whose account an identity opens', () => {
  const project = { id: randomUUID(), tenantId: randomUUID() } as ResolvedProject;
  const meta = { ip: null, userAgent: null };

  let users: User[];
  let identities: Identity[];
  let calls: string[];
  let failNextCreate: boolean;
  let service: OAuthAccountsService;

  const user = (over: Partial<User> = {}): User => {
    const u = {
      id: randomUUID(),
      tenantId: project.tenantId,
      projectId: project.id,
      email: 'owner@example.com',
      emailVerified: false,
      status: 'active',
      ...over,
    } as User;
    users.push(u);
    return u;
  };
  const google = (over: Partial<ProviderIdentity> = {}): ProviderIdentity => ({
    provider: 'google',
    subject: 'sub-1',
    email: 'owner@example.com',
    emailVerified: true,
    ...over,
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => 'signed in',
      (e: unknown) => (e instanceof OAuthFailure ? e.code : String(e)),
    );

  beforeEach(() => {
    users = [];
    identities = [];
    calls = [];
    failNextCreate = false;
    const identityRepo = {
      find: async (_m: EntityManager, _p: string, provider: string, subject: string) =>
        identities.find((i) => i.provider === provider && i.subject === subject) ?? null,
      touch: async () => void calls.push('touch'),
      create: async (_m: EntityManager, v: Omit<Identity, 'id'>) => {
        if (failNextCreate) {
          failNextCreate = false;
          // What a concurrent callback's insert of the same identity looks like.
          identities.push({
            id: randomUUID(),
            userId: users[0].id,
            provider: v.provider,
            subject: v.subject,
          });
          throw new QueryFailedError(
            'INSERT',
            [],
            Object.assign(new Error('duplicate'), {
              code: '23505',
              constraint: 'oauth_identities_provider_subject_key',
            }),
          );
        }
        const created = { ...v, id: randomUUID() };
        identities.push(created);
        calls.push(`link:${v.userId === users[0]?.id ? 'existing' : 'new'}`);
        return created;
      },
    } as unknown as OAuthIdentitiesRepository;
    const userRepo = {
      findById: async (_p: string, id: string) => users.find((u) => u.id === id) ?? null,
      findByEmail: async (_p: string, email: string) =>
        users.find((u) => u.email === email.toLowerCase()) ?? null,
      create: async (_m: EntityManager, v: Partial<User>) => {
        calls.push('create');
        return user({ ...v, email: v.email!, emailVerified: v.emailVerified! });
      },
    } as unknown as UsersRepository;
    const claims = {
      claimIfUnverified: async (
        _m: EntityManager,
        _p: ResolvedProject,
        u: User,
        proof: { identityId: string },
      ) =>
        void calls.push(
          `claim:${u.id === users[0]?.id}:${identities.some((i) => i.id === proof.identityId)}`,
        ),
      verifyForCreator: async () => void calls.push('verifyForCreator'),
    } as unknown as AccountClaimsService;
    const events = { record: async () => undefined } as unknown as EventRecorder;
    const userEvents = {
      created: async () => void calls.push('user.created'),
    } as unknown as UserEvents;
    const dataSource = {
      transaction: async (work: (m: EntityManager) => Promise<unknown>) =>
        work({} as EntityManager),
    } as unknown as DataSource;
    const clock: Clock = { now: () => new Date(), nowMs: () => Date.now() };
    service = new OAuthAccountsService(
      dataSource,
      identityRepo,
      userRepo,
      claims,
      events,
      userEvents,
      clock,
    );
  });

  it('signs a known identity in to its own user, and verifies the address only when the provider vouches for that same address', async () => {
    const owner = user();
    identities.push({ id: randomUUID(), userId: owner.id, provider: 'google', subject: 'sub-1' });
    expect((await service.resolveUser(project, google({ emailVerified: false }), meta)).id).toBe(
      owner.id,
    );
    expect(
      (await service.resolveUser(project, google({ email: 'other@example.com' }), meta)).id,
    ).toBe(owner.id);
    expect(calls).toEqual(['touch', 'touch']);
    expect(
      (await service.resolveUser(project, google({ email: 'OWNER@example.com' }), meta)).id,
    ).toBe(owner.id);
    expect(calls).toEqual(['touch', 'touch', 'touch', 'verifyForCreator']);
  });

  it('links a new identity to the user with the email only when the provider asserts it verified, claiming that account with the new identity', async () => {
    const owner = user();
    expect(
      await failure(service.resolveUser(project, google({ emailVerified: false }), meta)),
    ).toBe('account_exists');
    expect(calls).toEqual([]);
    expect((await service.resolveUser(project, google(), meta)).id).toBe(owner.id);
    expect(calls).toEqual(['link:existing', 'claim:true:true']);
  });

  it('creates a user (verified as the provider says) when no user has the email, and refuses an identity without one', async () => {
    const created = await service.resolveUser(
      project,
      google({ email: 'new@example.com', emailVerified: false }),
      meta,
    );
    expect(created).toMatchObject({ email: 'new@example.com', emailVerified: false });
    expect(calls).toEqual(['create', 'user.created', 'link:existing']);
    expect(
      await failure(service.resolveUser(project, google({ subject: 'sub-2', email: null }), meta)),
    ).toBe('provider_error');
  });

  it('refuses a disabled user, whether found by identity or by email', async () => {
    const owner = user({ status: 'disabled' });
    expect(await failure(service.resolveUser(project, google(), meta))).toBe('account_disabled');
    identities.push({ id: randomUUID(), userId: owner.id, provider: 'github', subject: 'gh-1' });
    expect(
      await failure(
        service.resolveUser(project, google({ provider: 'github', subject: 'gh-1' }), meta),
      ),
    ).toBe('account_disabled');
    expect(calls).toEqual([]);
  });

  it('ends on the identity a concurrent callback created first (a unique violation starts over once)', async () => {
    // The concurrent callback linked the identity and claimed the account in its transaction.
    const owner = user({ emailVerified: true });
    failNextCreate = true;
    expect((await service.resolveUser(project, google(), meta)).id).toBe(owner.id);
    expect(calls).toEqual(['touch']);
  });
});
