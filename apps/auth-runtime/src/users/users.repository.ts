import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PasswordCredential, queryPrepared, queryRows, User, type PreparedStatement } from '@gatehouse/entities';
import { liveSessionCountSql, projectsNamedByKeySql, unrevokedSessionOfUserSql } from '@gatehouse/identity';
import { organizationsOfUserJsonSql } from '@gatehouse/organizations';

export interface MeRow {
  id: string;
  email: string;
  is_admin: boolean;
  active_sessions: number;
  organizations: { id: string; name: string; role: string }[];
}

/** Whose `/me` to show: the access token's claims and what the presented project key resolves to. */
export interface MeQuery {
  userId: string;
  projectId: string;
  sessionId: string;
  /** The kid that signed the access token. */
  kid: string;
  /** The presented key when publishable, else null. */
  publishableKey: string | null;
  /** SHA-256 of the presented key when an API key secret, else null. */
  secretHash: string | null;
  now: Date;
}

/**
 * Everything `/me` shows and everything that can make it `{user: null}`, read together: the user
 * is active, the token's session and signing key are not revoked (PostgreSQL is where revocations
 * are written, so this needs no Redis check), and the presented key is the project's publishable
 * key or one of its live API keys.
 */
const ME_STATEMENT: PreparedStatement = {
  name: 'auth_me',
  text: `SELECT u.id, u.email, u.is_admin,
                ${liveSessionCountSql('u.id', '$4')} AS active_sessions,
                ${organizationsOfUserJsonSql('u.id')} AS organizations
           FROM users u
          WHERE u.id = $1 AND u.project_id = $2 AND u.status = 'active'
            AND ${unrevokedSessionOfUserSql('$3', 'u.id')}
            AND NOT EXISTS (SELECT 1 FROM signing_keys k WHERE k.kid = $7 AND k.status = 'revoked')
            AND EXISTS (SELECT 1 FROM (${projectsNamedByKeySql('p.id', '$5', '$6')}) named WHERE named.id = u.project_id)`,
};

/** The only code of the auth runtime that queries `users` and `password_credentials`. */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The project's user an identifier names (by email, or by username when it has no `@`), with
   * their password hash when they have one; one query.
   */
  async findByIdentifier(projectId: string, identifier: string): Promise<{ user: User; credential: Pick<PasswordCredential, 'passwordHash' | 'scheme'> | null } | null> {
    const column = identifier.includes('@') ? 'email' : 'username';
    const { entities, raw } = await this.dataSource
      .getRepository(User)
      .createQueryBuilder('u')
      .leftJoin(PasswordCredential, 'c', 'c.user_id = u.id')
      .addSelect('c.password_hash', 'c_password_hash')
      .addSelect('c.scheme', 'c_scheme')
      .where(`u.project_id = :projectId AND lower(u.${column}) = :identifier`, { projectId, identifier: identifier.toLowerCase() })
      .getRawAndEntities<{ c_password_hash: string | null; c_scheme: PasswordCredential['scheme'] | null }>();
    const user = entities[0];
    if (!user) return null;
    const { c_password_hash: passwordHash, c_scheme: scheme } = raw[0];
    return { user, credential: passwordHash && scheme ? { passwordHash, scheme } : null };
  }

  async findByEmail(projectId: string, email: string, manager?: EntityManager): Promise<User | null> {
    return (manager ?? this.dataSource.manager)
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.project_id = :projectId AND lower(u.email) = :email', { projectId, email: email.trim().toLowerCase() })
      .getOne();
  }

  /** The user's row, locked until the caller's transaction ends (claims and email changes). */
  lockById(manager: EntityManager, projectId: string, id: string): Promise<User | null> {
    return manager.getRepository(User).createQueryBuilder('u').setLock('pessimistic_write').where('u.id = :id AND u.project_id = :projectId', { id, projectId }).getOne();
  }

  /**
   * Locks the user's row against a claim, reset or disabling in progress (which hold it) until the
   * caller's transaction ends, before a signed-in user adds a credential or proof; false when the
   * user is gone or disabled. The caller checks its session in a later statement, which sees what
   * the change it waited for committed.
   */
  async lockForCredentialChange(manager: EntityManager, id: string): Promise<boolean> {
    const rows = await queryRows<{ status: string }>(manager, `SELECT status FROM users WHERE id = $1 FOR NO KEY UPDATE`, [id]);
    return rows[0]?.status === 'active';
  }

  /** Ends every sign-in in flight that read the user before this change (see `User.securityStamp`). */
  async bumpSecurityStamp(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(`UPDATE users SET security_stamp = security_stamp + 1 WHERE id = $1`, [userId]);
  }

  findById(projectId: string, id: string, manager?: EntityManager): Promise<User | null> {
    return (manager ?? this.dataSource.manager).getRepository(User).findOne({ where: { projectId, id } });
  }

  create(manager: EntityManager, user: Pick<User, 'tenantId' | 'projectId' | 'email' | 'username' | 'metadata'> & Partial<User>): Promise<User> {
    return manager.getRepository(User).save(manager.getRepository(User).create({ status: 'active', isAdmin: false, emailVerified: false, ...user }));
  }

  async setPassword(manager: EntityManager, userId: string, hash: string, scheme: PasswordCredential['scheme']): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(PasswordCredential)
      .values({ userId, passwordHash: hash, scheme })
      .orUpdate(['password_hash', 'scheme', 'updated_at'], ['user_id'])
      .execute();
  }

  async touchSignIn(manager: EntityManager, userId: string, at: Date): Promise<void> {
    await manager.getRepository(User).update({ id: userId }, { lastSignInAt: at });
  }

  async setEmailVerified(manager: EntityManager, userId: string): Promise<void> {
    await manager.getRepository(User).update({ id: userId }, { emailVerified: true });
  }

  /** A confirmed email change: the new address, verified (the unique index refuses one taken meanwhile). */
  async changeEmail(manager: EntityManager, userId: string, email: string): Promise<void> {
    await manager.getRepository(User).update({ id: userId }, { email, emailVerified: true });
  }

  /** Removes the user's password (the rightful owner claimed an account nobody had verified). */
  async removePassword(manager: EntityManager, userId: string): Promise<boolean> {
    const r = await manager.getRepository(PasswordCredential).delete({ userId });
    return (r.affected ?? 0) > 0;
  }

  /** Everything `/me` shows, in one prepared statement; null when it must answer `{user: null}`. */
  async me(q: MeQuery): Promise<MeRow | null> {
    const rows = await queryPrepared<MeRow>(this.dataSource, ME_STATEMENT, [q.userId, q.projectId, q.sessionId, q.now, q.publishableKey, q.secretHash, q.kid]);
    return rows[0] ?? null;
  }
}
