import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import type { User } from '@gatehouse/entities';
import type { PasswordHasher, ResolvedProject, UsersRepository } from '@gatehouse/identity';
import type { CacheStore } from '@gatehouse/platform';
import type { UserEvents } from '../sign-in/user-events';
import { PasswordMigrationService } from './password-migration.service';

/**
 * The double click of a first sign-in, with fakes: the second request read the user while it was
 * still to migrate, but by the time it locks the row the first one has completed the migration.
 * The second must then answer as any sign-in of a known user (the password stored now decides),
 * and never ask the old system again.
 */
describe('PasswordMigrationService.migrate when the user was migrated between the read and the lock', () => {
  const project = {
    id: 'project-1',
    tenantId: 'tenant-1',
    settings: {
      password_migration: {
        enabled: true,
        url: 'https://old.example/verify',
        secret_encrypted: 'x',
      },
    },
  } as unknown as ResolvedProject;
  const meta = { ip: null, userAgent: null };
  const existing = { id: 'user-1', email: 'ada@example.com' } as User;
  const stored = { passwordHash: '$2b$10$stored', scheme: 'bcrypt' } as const;

  function service(passwordIsStoredOne: boolean) {
    const manager = {} as EntityManager;
    const dataSource = {
      transaction: jest.fn(async (work: (m: EntityManager) => unknown) => work(manager)),
    } as unknown as DataSource;
    const users = {
      // The first click completed the migration: the row is no longer one to migrate.
      lockForLazyMigration: jest.fn(async () => null),
      findByIdentifier: jest.fn(async () => ({ user: existing, credential: stored })),
      setPassword: jest.fn(),
      completeMigration: jest.fn(),
      create: jest.fn(),
    } as unknown as jest.Mocked<UsersRepository>;
    const hasher = {
      verify: jest.fn(async () => passwordIsStoredOne),
      hash: jest.fn(),
    } as unknown as jest.Mocked<PasswordHasher>;
    const cache = { get: jest.fn(async () => null) } as unknown as CacheStore;
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    const sut = new PasswordMigrationService(
      dataSource,
      {} as AppConfig,
      users,
      hasher,
      {} as UserEvents,
      cache,
    );
    return { sut, users, hasher, fetchSpy };
  }

  afterEach(() => jest.restoreAllMocks());

  it('signs in with the password stored now, without a call to the old system or a write', async () => {
    const { sut, users, hasher, fetchSpy } = service(true);
    await expect(sut.migrate(project, 'ada@example.com', 'pw', existing, meta)).resolves.toEqual({
      user: existing,
      credential: stored,
    });
    expect(hasher.verify).toHaveBeenCalledWith('pw', stored.passwordHash, 'bcrypt');
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(users.setPassword).not.toHaveBeenCalled();
    expect(users.completeMigration).not.toHaveBeenCalled();
  });

  it('refuses another password (null), still without asking the old system', async () => {
    const { sut, users, fetchSpy } = service(false);
    await expect(sut.migrate(project, 'ada@example.com', 'other', existing, meta)).resolves.toBe(
      null,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(users.setPassword).not.toHaveBeenCalled();
  });
});
