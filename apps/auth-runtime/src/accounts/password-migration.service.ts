import { randomInt, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { uniqueViolation, type PasswordCredential, type User } from '@gatehouse/entities';
import {
  openMigrationSecret,
  PasswordHasher,
  projectPasswordMigrationSettings,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { outboundRequest } from '@gatehouse/outbound';
import { CacheStore } from '@gatehouse/platform';
import { signWebhook } from '@gatehouse/webhooks';
import { UserEvents } from '../sign-in/user-events';

/** The old system's answer is small: `{user}`. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** How many recent call durations are kept per project (in the shared cache, so every replica and a restarted one draw from them), and for how long. */
const DURATION_SAMPLES = 32;
const DURATION_TTL_MS = 7 * 24 * 3600 * 1000;
const durationsKey = (projectId: string) => `pwmig:durations:${projectId}`;

/**
 * Lazy password migration (docs/migration.md): a password sign-in that names an email Gatehouse
 * does not know, or an imported user without a hash (`needs_migration`), asks the project's old
 * system: `POST {email, password}` to `settings.password_migration.url`, signed as our webhooks
 * are, through the SSRF-guarded client (WEBHOOK_ALLOW_PRIVATE_URLS), within `timeout_ms`. A 200
 * `{user}` creates or completes the user with our hash of that password; anything else (another
 * status, a timeout, a refused address, bad JSON) is a wrong password. Lockout and the rate limit
 * ran before this; the password is sent once over the call and never logged or kept in the clear.
 *
 * The old system is asked only about a user never used here (no sign-in of any kind, no credential
 * changed: `UsersRepository.lockForLazyMigration`, the rule import's `on_conflict=update` applies),
 * checked on the user's locked row before the call and again in the transaction that writes the
 * password: a claim, reset or sign-in of the owner that lands in between ends it. A user refused
 * so is answered as any wrong password of a known email, after as long as a call.
 */
@Injectable()
export class PasswordMigrationService {
  private readonly log = new Logger('PasswordMigration');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly userEvents: UserEvents,
    private readonly cache: CacheStore,
  ) {}

  /** Whether the project migrates lazily (enabled, with a URL and a secret). */
  applies(project: ResolvedProject): boolean {
    const s = projectPasswordMigrationSettings(project.settings);
    return s.enabled && s.url !== null && s.secret_encrypted !== null;
  }

  /**
   * The user the old system vouched for, now with our hash, as read under the row lock of the write
   * (their security stamp is the one the session checks: a claim committed after it ends this
   * sign-in); null when it did not vouch, or when the user has been used here (`existing` is then
   * not asked about at all).
   */
  async migrate(
    project: ResolvedProject,
    email: string,
    password: string,
    existing: User | null,
    meta: RequestMeta,
  ): Promise<{
    user: User;
    credential: Pick<PasswordCredential, 'passwordHash' | 'scheme'>;
  } | null> {
    if (
      existing &&
      !(await this.dataSource.transaction((manager) =>
        this.users.lockForLazyMigration(manager, project.id, existing.id),
      ))
    ) {
      // Used here since the caller read it (a claim, a reset, any sign-in, or the first sign-in of a
      // double click): their password is theirs, never the old system's again. This password signs
      // in only if it is the one stored now, as any sign-in of a known user would.
      const stored = await this.storedMatch(project, email, password);
      if (stored) return stored;
      await this.waitAsLongAsACall(project);
      return null;
    }
    if (!(await this.oldSystemAccepts(project, email, password))) return null;
    const { hash, scheme } = await this.hasher.hash(password);
    try {
      const user = await this.dataSource.transaction(async (manager) => {
        let user: User | null;
        if (existing) {
          // Again, on the row the write locks: the owner may have taken the account during the call.
          user = await this.users.lockForLazyMigration(manager, project.id, existing.id);
          if (!user) return null;
        } else {
          user = await this.users.create(manager, {
            tenantId: project.tenantId,
            projectId: project.id,
            email,
            username: null,
            metadata: {},
          });
          await this.userEvents.created(manager, project, user, meta);
        }
        await this.users.setPassword(manager, user.id, hash, scheme);
        await this.users.completeMigration(manager, user.id);
        return user;
      });
      if (user) return { user, credential: { passwordHash: hash, scheme } };
    } catch (err) {
      if (uniqueViolation(err) !== 'users_project_email_uq') throw err;
    }
    // Another request got there first: a first sign-in at once (a double click) that stored its hash,
    // or the owner's claim, reset or sign-in. This password signs in if it is the one stored now, as
    // any sign-in of a known user would (a claim left none).
    return this.storedMatch(project, email, password);
  }

  /** The user and their stored credential, when `password` is the password stored now. */
  private async storedMatch(project: ResolvedProject, email: string, password: string) {
    const now = await this.users.findByIdentifier(project.id, email);
    return now?.credential &&
      (await this.hasher.verify(password, now.credential.passwordHash, now.credential.scheme))
      ? { user: now.user, credential: now.credential }
      : null;
  }

  /**
   * A wrong password for an email Gatehouse knows is answered after as long as a recent call to the
   * old system took (one of the project's last durations, drawn at random), so that the answer's
   * time does not tell a known email (a bcrypt check) from one that is not here yet (a bcrypt check
   * and the call). The durations live in the shared cache: every replica, and one just restarted,
   * draws from the project's last calls. Nothing to wait for before the project's first call.
   */
  async waitAsLongAsACall(project: ResolvedProject): Promise<void> {
    const samples = await this.durationsOf(project.id);
    if (!samples.length) return;
    await sleep(samples[randomInt(samples.length)]);
  }

  /** The project's recorded durations; a value that is not such a list (written by hand, say) counts as none. */
  private async durationsOf(projectId: string): Promise<number[]> {
    const stored = await this.cache.get(durationsKey(projectId));
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored ?? '[]');
    } catch {
      return [];
    }
    return Array.isArray(parsed)
      ? parsed.filter((n): n is number => typeof n === 'number' && n >= 0 && n <= 60_000)
      : [];
  }

  /** Read, append, write: two calls at once may drop one sample, which a statistic can afford. */
  private async recordDuration(projectId: string, ms: number): Promise<void> {
    const samples = [...(await this.durationsOf(projectId)), Math.round(ms)].slice(
      -DURATION_SAMPLES,
    );
    await this.cache.set(durationsKey(projectId), JSON.stringify(samples), DURATION_TTL_MS);
  }

  private async oldSystemAccepts(
    project: ResolvedProject,
    email: string,
    password: string,
  ): Promise<boolean> {
    const started = performance.now();
    try {
      return await this.askOldSystem(project, email, password);
    } finally {
      await this.recordDuration(project.id, performance.now() - started);
    }
  }

  private async askOldSystem(
    project: ResolvedProject,
    email: string,
    password: string,
  ): Promise<boolean> {
    const s = projectPasswordMigrationSettings(project.settings);
    const body = JSON.stringify({ email, password });
    const id = `msg_${randomUUID()}`;
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const secret = openMigrationSecret(this.config, project.id, s.secret_encrypted!);
      const res = await outboundRequest(
        s.url!,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Gatehouse-Password-Migration/1.0',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(secret, id, timestamp, body),
          },
          body,
        },
        {
          mode: this.config.webhooks.allowPrivateUrls,
          timeoutMs: s.timeout_ms,
          maxBytes: MAX_ANSWER_BYTES,
        },
      );
      if (res.status !== 200) return false;
      const answer = JSON.parse(res.body) as { user?: unknown };
      return (
        !!answer && typeof answer === 'object' && !!answer.user && typeof answer.user === 'object'
      );
    } catch (err) {
      // No answer, a refused address, or not JSON: a wrong password. The reason is logged, never the password.
      this.log.warn(
        `password migration call for project ${project.id} failed: ${err instanceof Error ? err.message : 'unknown error'}`,
      );
      return false;
    }
  }
}
