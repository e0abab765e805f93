import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  containsPattern,
  PasswordCredential,
  queryPrepared,
  queryRows,
  User,
  type PreparedStatement,
  type UserStatus,
} from '@gatehouse/entities';
import {
  activeOrganizationJsonSql,
  autoJoinSql,
  organizationsOfUserJsonSql,
  type DomainJoinRow,
  type OrganizationClaim,
} from '@gatehouse/organizations';
import { enabledMfaFactorTypesSql } from '../credentials/mfa-factors.repository';
import { projectsNamedByKeySql } from '../projects/projects.repository';
import { liveSessionCountSql, unrevokedSessionOfUserSql } from '../sessions/sessions.repository';
import { revokedKidSql } from '../signing-keys.service';
import type { ClaimSources } from '../token-claims';

/** A user as the OpenID Connect provider's claims need them (ID tokens, userinfo). */
export interface UserClaimsRow {
  id: string;
  tenant_id: string;
  email: string;
  email_verified: boolean;
  username: string | null;
}

/** The columns of a UserClaimsRow, of the users row `u` (SessionsRepository and the OIDC grants read the same, joined). */
const USER_CLAIMS_COLUMNS = 'u.id, u.tenant_id, u.email, u.email_verified, u.username';

/** The auth runtime's `/me`: the user with their live sessions and organizations. */
export interface MeRow {
  id: string;
  email: string;
  is_admin: boolean;
  active_sessions: number;
  organizations: { id: string; name: string; role: string }[];
  /** Enabled second factors among `totp`, `sms`, `passkey`, `backup_code` (docs/api-contract.md §13), unordered. */
  mfa_factors: string[];
  /** The admin acting as the user when the session is an impersonated one. */
  impersonator: { id: string; email: string } | null;
  /** The session's active organization where the user is still a member (docs/api-contract.md §14); else null. */
  active_organization: (OrganizationClaim & { name: string }) | null;
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
                ${organizationsOfUserJsonSql('u.id')} AS organizations,
                ARRAY(SELECT f.type FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'enabled'
                      UNION ALL SELECT 'passkey' WHERE EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id)
                      UNION ALL SELECT 'backup_code' WHERE EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'enabled')
                                                      AND EXISTS (SELECT 1 FROM mfa_backup_codes c WHERE c.user_id = u.id AND c.used_at IS NULL)) AS mfa_factors,
                (SELECT json_build_object('id', a.id, 'email', a.email) FROM sessions s JOIN users a ON a.id = s.impersonator_id WHERE s.id = $3) AS impersonator,
                (SELECT ${activeOrganizationJsonSql('s', { withName: true })} FROM sessions s WHERE s.id = $3) AS active_organization
           FROM users u
          WHERE u.id = $1 AND u.project_id = $2 AND u.status = 'active'
            AND ${unrevokedSessionOfUserSql('$3', 'u.id')}
            AND NOT ${revokedKidSql('$7')}
            AND EXISTS (SELECT 1 FROM (${projectsNamedByKeySql('p.id', '$5', '$6')}) named WHERE named.id = u.project_id)`,
};

/**
 * Whether user `u` has been used here: signed in by any way (every session starts with
 * `touchSignIn`: password, magic link, social, passkey, a completed MFA step, sign-up), or changed
 * credentials here (a password reset or change, an account claim, an admin's disabling: the
 * security stamp moved). Whatever else a user sets up here (a passkey, TOTP, SMS, backup codes, a
 * verified email) needs a session first. Never undone: neither column goes back. Such a user's
 * identifiers and credentials are theirs: an `on_conflict=update` import keeps them
 * (`lockForImportUpdate`) and lazy migration no longer asks the old system (`lockForLazyMigration`).
 */
const usedHereSql = (u: string) => `(${u}.last_sign_in_at IS NOT NULL OR ${u}.security_stamp > 0)`;

/** The control plane's user resource (docs/api-contract.md §10), with the enabled MFA factor types. */
export interface UserRow {
  id: string;
  tenant_id: string;
  project_id: string;
  email: string;
  email_verified: boolean;
  username: string | null;
  status: UserStatus;
  is_admin: boolean;
  metadata: Record<string, unknown>;
  mfa_factors: string[];
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
}

/** A user as an export reads it (see `exportPage`). */
export interface ExportRow {
  id: string;
  email: string;
  email_verified: boolean;
  username: string | null;
  status: 'active' | 'disabled';
  metadata: Record<string, unknown>;
  created_at: Date;
  external_id: string | null;
  password_hash: string | null;
  scheme: PasswordCredential['scheme'] | null;
  totp_secret_encrypted: string | null;
  phone_number: string | null;
  identities: { provider: string; subject: string; email: string | null }[];
}

/** The control plane's user list filters. */
export interface UserFilter {
  projectId?: string;
  /** Case-insensitive literal substring of email or username. */
  q?: string;
}

const USER_ROW_COLUMNS = `u.id, u.tenant_id, u.project_id, u.email, u.email_verified, u.username, u.status, u.is_admin, u.metadata,
  u.created_at, u.updated_at, u.last_sign_in_at,
  ${enabledMfaFactorTypesSql('u.id')} AS mfa_factors`;

/**
 * The only code that queries `users` and `password_credentials`, for both HTTP apps and
 * provisioning: the auth runtime's sign-up, sign-in, `/me` and credential changes (users of one
 * project, as `User` entities), the control plane's user list, detail, update and delete (users of
 * the admin's tenant, as `UserRow`), and ProvisioningService's users with a password and console
 * admin lookup. Control-plane lists walk the (tenant_id|project_id, created_at DESC, id) indexes;
 * `q` uses the trigram GIN indexes on lower(email)/lower(username).
 *
 * Its statements read other tables in the same round trip through SQL their owners export
 * (`sessions`, `organization_members`, `projects` and `signing_keys` for `/me`; `mfa_factors` for
 * `UserRow`). The other way round, statements owned by other repositories still read `users` by a
 * join or subquery, in their one round trip, and stay there: SessionsRepository.create (locks the
 * user's row and checks the security stamp before writing a session), RefreshChainsRepository (the
 * user's status and admin flag on a refresh) and OrganizationMembersRepository (members' email and
 * username; a member is added only when the user is of the project and tenant).
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  // Users of one project, as `User` entities: the auth runtime (and provisioning, through `create` and `setPassword`).

  /**
   * The project's user an identifier names (by email, or by username when it has no `@`), with
   * their password hash when they have one; one query.
   */
  async findByIdentifier(
    projectId: string,
    identifier: string,
  ): Promise<{
    user: User;
    credential: Pick<PasswordCredential, 'passwordHash' | 'scheme'> | null;
  } | null> {
    const column = identifier.includes('@') ? 'email' : 'username';
    const { entities, raw } = await this.dataSource
      .getRepository(User)
      .createQueryBuilder('u')
      .leftJoin(PasswordCredential, 'c', 'c.user_id = u.id')
      .addSelect('c.password_hash', 'c_password_hash')
      .addSelect('c.scheme', 'c_scheme')
      .where(`u.project_id = :projectId AND lower(u.${column}) = :identifier`, {
        projectId,
        identifier: identifier.toLowerCase(),
      })
      .getRawAndEntities<{
        c_password_hash: string | null;
        c_scheme: PasswordCredential['scheme'] | null;
      }>();
    const user = entities[0];
    if (!user) return null;
    const { c_password_hash: passwordHash, c_scheme: scheme } = raw[0];
    return { user, credential: passwordHash && scheme ? { passwordHash, scheme } : null };
  }

  /** The project's user when active, with what the OpenID Connect provider's claims say of them; else null. */
  async activeClaimsUser(projectId: string, userId: string): Promise<UserClaimsRow | null> {
    const rows = await queryRows<UserClaimsRow>(
      this.dataSource.manager,
      `SELECT ${USER_CLAIMS_COLUMNS} FROM users u WHERE u.id = $1 AND u.project_id = $2 AND u.status = 'active'`,
      [userId, projectId],
    );
    return rows[0] ?? null;
  }

  /**
   * What a project's `token_claims` read of an active user (and of `organizationId` while they are
   * its member), for a token issued outside a session statement (the OpenID Connect provider's).
   */
  async claimSources(
    projectId: string,
    userId: string,
    organizationId: string | null,
  ): Promise<ClaimSources> {
    const rows = await queryRows<ClaimSources>(
      this.dataSource.manager,
      `SELECT json_build_object('metadata', u.metadata, 'email_verified', u.email_verified) AS user,
              (SELECT json_build_object('metadata', o.metadata) FROM organizations o
                 JOIN organization_members m ON m.organization_id = o.id AND m.user_id = u.id
                WHERE o.id = $3::uuid AND o.project_id = u.project_id) AS org
         FROM users u WHERE u.id = $1 AND u.project_id = $2 AND u.status = 'active'`,
      [userId, projectId, organizationId],
    );
    return rows[0] ?? {};
  }

  async findByEmail(
    projectId: string,
    email: string,
    manager?: EntityManager,
  ): Promise<User | null> {
    return (manager ?? this.dataSource.manager)
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.project_id = :projectId AND lower(u.email) = :email', {
        projectId,
        email: email.trim().toLowerCase(),
      })
      .getOne();
  }

  /** The user's row, locked until the caller's transaction ends (claims and email changes). */
  lockById(manager: EntityManager, projectId: string, id: string): Promise<User | null> {
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.id = :id AND u.project_id = :projectId', { id, projectId })
      .getOne();
  }

  /**
   * Locks the user's row against a claim, reset or disabling in progress (which hold it) until the
   * caller's transaction ends, before a signed-in user adds a credential or proof; false when the
   * user is gone or disabled. The caller checks its session in a later statement, which sees what
   * the change it waited for committed.
   */
  async lockForCredentialChange(manager: EntityManager, id: string): Promise<boolean> {
    const rows = await queryRows<{ status: string }>(
      manager,
      `SELECT status FROM users WHERE id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    return rows[0]?.status === 'active';
  }

  /**
   * Ends every sign-in in flight that read the user before this change (see `User.securityStamp`),
   * and the user's lazy migration for good (their credentials changed here).
   */
  async bumpSecurityStamp(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `UPDATE users SET security_stamp = security_stamp + 1, needs_migration = false WHERE id = $1`,
      [userId],
    );
  }

  /**
   * Lazy migration: the user's row, locked until the caller's transaction ends (a claim, reset or
   * sign-in in progress, which hold or take it, finishes first), when the old system may still
   * vouch for their password: marked `needs_migration`, no password here, and never used here
   * (`usedHereSql`). Null otherwise. The check is a statement of its own after the lock, so it sees
   * what the change it waited for committed.
   */
  async lockForLazyMigration(
    manager: EntityManager,
    projectId: string,
    id: string,
  ): Promise<User | null> {
    const user = await this.lockById(manager, projectId, id);
    if (!user) return null;
    const rows = await queryRows<{ migratable: boolean }>(
      manager,
      `SELECT (u.needs_migration AND NOT ${usedHereSql('u')} AND NOT EXISTS (SELECT 1 FROM password_credentials c WHERE c.user_id = u.id)) AS migratable FROM users u WHERE u.id = $1`,
      [id],
    );
    return rows[0]?.migratable ? user : null;
  }

  findById(projectId: string, id: string, manager?: EntityManager): Promise<User | null> {
    return (manager ?? this.dataSource.manager)
      .getRepository(User)
      .findOne({ where: { projectId, id } });
  }

  create(
    manager: EntityManager,
    user: Pick<User, 'tenantId' | 'projectId' | 'email' | 'username' | 'metadata'> & Partial<User>,
  ): Promise<User> {
    return manager
      .getRepository(User)
      .save(
        manager
          .getRepository(User)
          .create({ status: 'active', isAdmin: false, emailVerified: false, ...user }),
      );
  }

  /** Lazy migration done: the user's password is ours now (set in the same transaction). */
  async completeMigration(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `UPDATE users SET needs_migration = false, updated_at = now() WHERE id = $1`,
      [userId],
    );
  }

  async setPassword(
    manager: EntityManager,
    userId: string,
    hash: string,
    scheme: PasswordCredential['scheme'],
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(PasswordCredential)
      .values({ userId, passwordHash: hash, scheme })
      .orUpdate(['password_hash', 'scheme', 'updated_at'], ['user_id'])
      .execute();
  }

  // User import and export (the control plane, docs/api-contract.md §12).

  /** The project's users an import line may name: by email (case-insensitive) or by external id. */
  findImportMatches(
    manager: EntityManager,
    projectId: string,
    email: string,
    externalId: string | null,
  ): Promise<{ id: string; external_id: string | null }[]> {
    return queryRows(
      manager,
      `SELECT id, external_id FROM users WHERE project_id = $1 AND lower(email) = lower($2)
       UNION
       SELECT id, external_id FROM users WHERE project_id = $1 AND external_id = $3
       ORDER BY id`,
      [projectId, email, externalId],
    );
  }

  /**
   * Of a batch of import lines, the ones that name an existing user of the project (by email,
   * case-insensitive, or external id): their lower-cased emails and external ids, one statement.
   */
  async existingForImport(
    manager: EntityManager,
    projectId: string,
    emails: string[],
    externalIds: string[],
  ): Promise<{ emails: Set<string>; externalIds: Set<string> }> {
    const rows = await queryRows<{ email: string; external_id: string | null }>(
      manager,
      // Two index lookups, not one OR (which the planner answers with a scan of the whole project: quadratic over an import).
      `SELECT lower(email) AS email, external_id FROM users WHERE project_id = $1 AND lower(email) = ANY($2::text[])
       UNION
       SELECT lower(email), external_id FROM users WHERE project_id = $1 AND external_id = ANY($3::text[])`,
      [projectId, emails, externalIds],
    );
    return {
      emails: new Set(rows.map((r) => r.email)),
      externalIds: new Set(rows.flatMap((r) => (r.external_id ? [r.external_id] : []))),
    };
  }

  /**
   * New imported users and their password hashes in two statements (the bulk of an import): rows
   * of users that exist nowhere yet. A unique violation fails the whole call (the caller then
   * writes those lines one by one).
   */
  async insertImportedBatch(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    rows: {
      email: string;
      emailVerified: boolean;
      username: string | null;
      metadata: Record<string, unknown>;
      externalId: string | null;
      createdAt: Date | null;
      hash: { hash: string; scheme: string } | null;
    }[],
  ): Promise<string[]> {
    const inserted = await queryRows<{ id: string; email: string }>(
      manager,
      `INSERT INTO users (tenant_id, project_id, email, email_verified, username, metadata, external_id, needs_migration, status, is_admin, created_at, updated_at)
       SELECT $1, $2, u.email, u.email_verified, u.username, u.metadata, u.external_id, u.needs_migration, 'active', false, COALESCE(u.created_at, now()), now()
         FROM unnest($3::text[], $4::boolean[], $5::text[], $6::jsonb[], $7::text[], $8::boolean[], $9::timestamptz[]) WITH ORDINALITY
              AS u(email, email_verified, username, metadata, external_id, needs_migration, created_at, ord)
        ORDER BY u.ord
       RETURNING id, lower(email) AS email`,
      [
        tenantId,
        projectId,
        rows.map((r) => r.email),
        rows.map((r) => r.emailVerified),
        rows.map((r) => r.username),
        rows.map((r) => JSON.stringify(r.metadata)),
        rows.map((r) => r.externalId),
        rows.map((r) => r.hash === null),
        rows.map((r) => r.createdAt),
      ],
    );
    // Matched by email (unique in the project, and in the batch): RETURNING promises no order.
    const idOf = new Map(inserted.map((r) => [r.email, r.id]));
    const ids = rows.map((r) => idOf.get(r.email.toLowerCase())!);
    const withHash = rows.flatMap((r, i) => (r.hash ? [{ id: ids[i], ...r.hash }] : []));
    if (withHash.length) {
      await manager.query(
        `INSERT INTO password_credentials (user_id, password_hash, scheme) SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])`,
        [withHash.map((h) => h.id), withHash.map((h) => h.hash), withHash.map((h) => h.scheme)],
      );
    }
    return ids;
  }

  /** An imported user; `createdAt` kept from the system they came from. Returns the new id. */
  async insertImported(
    manager: EntityManager,
    u: {
      tenantId: string;
      projectId: string;
      email: string;
      emailVerified: boolean;
      username: string | null;
      metadata: Record<string, unknown>;
      externalId: string | null;
      createdAt: Date | null;
      needsMigration: boolean;
      status?: 'active' | 'disabled';
    },
  ): Promise<string> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO users (tenant_id, project_id, email, email_verified, username, metadata, external_id, needs_migration, status, is_admin, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10, false, COALESCE($9::timestamptz, now()), now()) RETURNING id`,
      [
        u.tenantId,
        u.projectId,
        u.email,
        u.emailVerified,
        u.username,
        JSON.stringify(u.metadata),
        u.externalId,
        u.needsMigration,
        u.createdAt,
        u.status ?? 'active',
      ],
    );
    return rows[0].id;
  }

  /**
   * The user an `on_conflict=update` line names, locked until the line's transaction ends (a
   * password reset or claim in flight finishes first, and is seen). `owned`: the user has signed in
   * here, or changed their credentials here (a password change or reset, an account claim: the
   * security stamp moved), so their sign-in identifiers and credentials are theirs now.
   */
  async lockForImportUpdate(
    manager: EntityManager,
    id: string,
  ): Promise<{
    email: string;
    email_verified: boolean;
    username: string | null;
    status: 'active' | 'disabled';
    owned: boolean;
  }> {
    const rows = await queryRows<{
      email: string;
      email_verified: boolean;
      username: string | null;
      status: 'active' | 'disabled';
      owned: boolean;
    }>(
      manager,
      `SELECT email, email_verified, username, status, ${usedHereSql('users')} AS owned FROM users WHERE id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    return rows[0];
  }

  /** `on_conflict=update`: the line's fields replace the user's (an absent field keeps its value). */
  async updateImported(
    manager: EntityManager,
    id: string,
    f: {
      email?: string;
      emailVerified?: boolean;
      username?: string | null;
      metadata?: Record<string, unknown>;
      externalId?: string | null;
    },
  ): Promise<void> {
    await manager.query(
      `UPDATE users SET email = COALESCE($2, email), email_verified = COALESCE($3, email_verified), username = CASE WHEN $4::boolean THEN $5 ELSE username END,
         metadata = COALESCE($6::jsonb, metadata), external_id = COALESCE($7, external_id), updated_at = now() WHERE id = $1`,
      [
        id,
        f.email ?? null,
        f.emailVerified ?? null,
        f.username !== undefined,
        f.username ?? null,
        f.metadata ? JSON.stringify(f.metadata) : null,
        f.externalId ?? null,
      ],
    );
  }

  /**
   * One page of the project's users for an export, in id order after `afterId`: each with the
   * password hash and scheme, the enabled TOTP secret (sealed) and SMS phone, and the social
   * identities, in one statement (the export streams page after page; nothing is held).
   */
  exportPage(projectId: string, afterId: string | null, limit: number): Promise<ExportRow[]> {
    return queryRows<ExportRow>(
      this.dataSource.manager,
      `SELECT u.id, u.email, u.email_verified, u.username, u.status, u.metadata, u.created_at, u.external_id, c.password_hash, c.scheme,
              (SELECT f.secret_encrypted FROM mfa_factors f WHERE f.user_id = u.id AND f.type = 'totp' AND f.status = 'enabled') AS totp_secret_encrypted,
              (SELECT f.phone_number FROM mfa_factors f WHERE f.user_id = u.id AND f.type = 'sms' AND f.status = 'enabled') AS phone_number,
              COALESCE((SELECT json_agg(json_build_object('provider', i.provider, 'subject', i.subject, 'email', i.email) ORDER BY i.provider, i.subject)
                          FROM oauth_identities i WHERE i.user_id = u.id), '[]'::json) AS identities
         FROM users u LEFT JOIN password_credentials c ON c.user_id = u.id
        WHERE u.project_id = $1 AND ($2::uuid IS NULL OR u.id > $2::uuid)
        ORDER BY u.id LIMIT $3`,
      [projectId, afterId, limit],
    );
  }

  /**
   * A session started (any way in): the user is used here, so their lazy migration ends for good
   * (`usedHereSql`). With `enrol` (a user whose email is verified, at that email's domain) the same
   * statement makes them a member of the organization whose verified domain it is, when that
   * domain auto-joins (`autoJoinSql`, one indexed lookup, no extra round trip): the memberships it
   * gave, usually none.
   */
  async touchSignIn(
    manager: EntityManager,
    userId: string,
    at: Date,
    enrol?: { projectId: string; domain: string },
  ): Promise<DomainJoinRow[]> {
    if (!enrol) {
      await manager
        .getRepository(User)
        .update({ id: userId }, { lastSignInAt: at, needsMigration: false });
      return [];
    }
    return queryRows<DomainJoinRow>(
      manager,
      `WITH joined AS (${autoJoinSql('$1', '$3', '$4')}),
            touched AS (UPDATE users SET last_sign_in_at = $2, needs_migration = false, updated_at = CURRENT_TIMESTAMP WHERE id = $1)
       SELECT j.organization_id, o.name AS organization_name, j.role
         FROM joined j JOIN organizations o ON o.id = j.organization_id`,
      [userId, at, enrol.projectId, enrol.domain],
    );
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
    const rows = await queryPrepared<MeRow>(this.dataSource, ME_STATEMENT, [
      q.userId,
      q.projectId,
      q.sessionId,
      q.now,
      q.publishableKey,
      q.secretHash,
      q.kid,
    ]);
    return rows[0] ?? null;
  }

  // The control plane: users of the admin's tenant, as `UserRow`.

  private where(tenantId: string, filter: UserFilter): { sql: string; params: unknown[] } {
    const params: unknown[] = [tenantId];
    const clauses = ['u.tenant_id = $1'];
    if (filter.projectId) {
      params.push(filter.projectId);
      clauses.push(`u.project_id = $${params.length}`);
    }
    if (filter.q) {
      params.push(containsPattern(filter.q));
      const p = `lower($${params.length})`;
      clauses.push(
        `(lower(u.email) LIKE ${p} ESCAPE '\\' OR lower(u.username) LIKE ${p} ESCAPE '\\')`,
      );
    }
    return { sql: clauses.join(' AND '), params };
  }

  /**
   * The page's ids first (an index-only walk for plain lists, so deep pages skip heap fetches),
   * then the 20 rows and their enabled MFA factors.
   */
  listSql(
    tenantId: string,
    filter: UserFilter,
    page: { limit: number; offset: number },
  ): { sql: string; params: unknown[] } {
    const w = this.where(tenantId, filter);
    return {
      sql: `WITH page AS (
              SELECT u.id, u.created_at FROM users u WHERE ${w.sql}
               ORDER BY u.created_at DESC, u.id LIMIT ${page.limit} OFFSET ${page.offset})
            SELECT ${USER_ROW_COLUMNS} FROM page JOIN users u ON u.id = page.id ORDER BY page.created_at DESC, page.id`,
      params: w.params,
    };
  }

  countSql(tenantId: string, filter: UserFilter): { sql: string; params: unknown[] } {
    const w = this.where(tenantId, filter);
    return { sql: `SELECT count(*)::int AS total FROM users u WHERE ${w.sql}`, params: w.params };
  }

  async list(
    tenantId: string,
    filter: UserFilter,
    page: { limit: number; offset: number },
  ): Promise<[UserRow[], number]> {
    const list = this.listSql(tenantId, filter, page);
    const count = this.countSql(tenantId, filter);
    // Two pool connections: the page and the count run side by side.
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<UserRow[]>(list.sql, list.params),
      this.dataSource.query<[{ total: number }]>(count.sql, count.params),
    ]);
    return [rows, total];
  }

  async findInTenant(
    tenantId: string,
    id: string,
    manager?: EntityManager,
  ): Promise<UserRow | null> {
    const rows: UserRow[] = await (manager ?? this.dataSource.manager).query(
      `SELECT ${USER_ROW_COLUMNS} FROM users u WHERE u.id = $1 AND u.tenant_id = $2`,
      [id, tenantId],
    );
    return rows[0] ?? null;
  }

  /** Row-locks the user (FOR UPDATE: also waits for sessions being inserted for them). */
  async lockInTenant(
    manager: EntityManager,
    tenantId: string,
    id: string,
  ): Promise<UserRow | null> {
    const locked: unknown[] = await manager.query(
      `SELECT id FROM users WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [id, tenantId],
    );
    return locked.length ? this.findInTenant(tenantId, id, manager) : null;
  }

  /** An admin's change of status, metadata or `email_verified`. */
  async update(
    manager: EntityManager,
    id: string,
    fields: { status?: UserStatus; metadata?: Record<string, unknown>; emailVerified?: boolean },
  ): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    if (fields.status !== undefined) {
      params.push(fields.status);
      sets.push(`status = $${params.length}`);
      // Disabling ends every sign-in in flight (the auth runtime's session insert checks the stamp).
      if (fields.status === 'disabled') sets.push('security_stamp = security_stamp + 1');
    }
    if (fields.metadata !== undefined) {
      params.push(JSON.stringify(fields.metadata));
      sets.push(`metadata = $${params.length}::jsonb`);
    }
    if (fields.emailVerified !== undefined) {
      params.push(fields.emailVerified);
      sets.push(`email_verified = $${params.length}`);
    }
    if (!sets.length) return;
    await manager.query(
      `UPDATE users SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`,
      params,
    );
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM users WHERE id = $1`, [id]);
  }

  // Provisioning.

  /** The tenant whose console project has an admin with this email (the oldest such admin), for `npm start`'s bootstrap. */
  async findConsoleAdmin(
    manager: EntityManager,
    email: string,
  ): Promise<{
    tenant_id: string;
    project_id: string;
    project_key: string;
    admin_user_id: string;
  } | null> {
    const rows: {
      tenant_id: string;
      project_id: string;
      project_key: string;
      admin_user_id: string;
    }[] = await manager.query(
      `SELECT p.tenant_id, p.id AS project_id, p.publishable_key AS project_key, u.id AS admin_user_id
         FROM users u JOIN projects p ON p.id = u.project_id
        WHERE p.is_console AND u.is_admin AND lower(u.email) = lower($1)
        ORDER BY u.created_at LIMIT 1`,
      [email.trim()],
    );
    return rows[0] ?? null;
  }
}
