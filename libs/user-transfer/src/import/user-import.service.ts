import { randomInt } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { encryptSecret, ImportedHashError, parseImportedHash, WEAK_SCHEMES, type FirebaseScryptParameters } from '@gatehouse/crypto';
import { deadlockDetected, uniqueViolation, type Project } from '@gatehouse/entities';
import { AccessTokensService, EventRecorder, MfaFactorsRepository, OAuthIdentitiesRepository, SessionsRepository, totpSecretAad, UsersRepository, type RequestMeta } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError, ProblemValidationPipe, type FieldErrors } from '@gatehouse/problem-details';
import { ImportLineDto } from './import-line.dto';
import { ndjsonLines } from '../ndjson-lines';

export type OnConflict = 'skip' | 'update' | 'conflict';

export interface ImportOptions {
  onConflict: OnConflict;
  allowWeakHashes: boolean;
  emitEvents: boolean;
  firebase: FirebaseScryptParameters | null;
}

export interface ImportReport {
  counts: { created: number; updated: number; skipped: number; conflicts: number; rejected: number };
  /** Lines imported with a weak hash (upgraded at their first sign-in). */
  weak_hashes: number;
  /** Update lines that would have changed the email, username, password, MFA or identities of a user who had signed in or changed credentials here, and did not. */
  credentials_kept: number;
  errors: { line: number; type: string; detail: string; errors?: FieldErrors }[];
}

/** Lines in one transaction: a failure costs at most this many lines' work, and a million lines are not one transaction. */
const BATCH = 200;
/** A batch aborted by a deadlock with another import is run again, this many times at most. */
const MAX_BATCH_ATTEMPTS = 5;
const MAX_LINE_BYTES = 64 * 1024;
/** The report lists the first this many refused lines (the counts count them all). */
const MAX_REPORTED_ERRORS = 1000;

/** Who imports: an admin (the API), or the system (`userId` null: the CLI, run on the server). */
export interface ImportActor {
  tenantId: string;
  userId: string | null;
  meta: RequestMeta;
}

/**
 * User import (CONTRACT §12): NDJSON lines streamed from the request, validated one by one (a
 * malformed line is reported and the rest go on), written in transactions of `BATCH` lines with a
 * savepoint per line, so a line that fails at the database is undone alone. Idempotent through the
 * email and the external id, as `on_conflict` says. One `users.imported` audit event with the counts;
 * `user.created` per user only with `emit_events`.
 */
@Injectable()
export class UserImportService {
  private readonly pipe = new ProblemValidationPipe();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly factors: MfaFactorsRepository,
    private readonly identities: OAuthIdentitiesRepository,
    private readonly events: EventRecorder,
    private readonly sessions: SessionsRepository,
    private readonly tokens: AccessTokensService,
    private readonly clock: Clock,
  ) {}

  async import(project: Project, body: Readable, options: ImportOptions, actor: ImportActor): Promise<ImportReport> {
    const report = emptyReport();
    const refuse = refuseIn(report);
    let batch: { number: number; line: ParsedLine }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const lines = batch;
      batch = [];
      // Another import writing the same users in another order can deadlock with this batch:
      // PostgreSQL aborts one transaction, which is then run again whole (its counts kept apart until it commits).
      for (let attempt = 1; ; attempt += 1) {
        const part = emptyReport();
        try {
          await this.dataSource.transaction((manager) => this.writeBatch(manager, project, lines, options, part, actor));
          merge(report, part);
          return;
        } catch (err) {
          if (!deadlockDetected(err) || attempt >= MAX_BATCH_ATTEMPTS) throw err;
          await sleep(randomInt(20, 200));
        }
      }
    };

    for await (const raw of ndjsonLines(body, MAX_LINE_BYTES)) {
      if (raw.tooLong) {
        refuse(raw.number, 'payload-too-large', `The line is longer than ${MAX_LINE_BYTES} bytes.`);
        continue;
      }
      const parsed = await this.parse(raw.text, options);
      if ('problem' in parsed) {
        refuse(raw.number, parsed.problem.slug, parsed.problem.message, parsed.problem.options.errors);
        continue;
      }
      batch.push({ number: raw.number, line: parsed });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    report.errors.sort((a, b) => a.line - b.line);

    await this.dataSource.transaction((manager) =>
      this.events.record(manager, {
        tenantId: actor.tenantId,
        projectId: project.id,
        actorType: actor.userId ? 'admin' : 'system',
        actorId: actor.userId,
        action: 'users.imported',
        resourceType: 'project',
        resourceId: project.id,
        meta: actor.meta,
        data: { project_id: project.id, counts: report.counts, weak_hashes: report.weak_hashes, credentials_kept: report.credentials_kept, on_conflict: options.onConflict },
      }),
    );
    return report;
  }

  /** One batch, in its transaction: new plain users in bulk, the rest line by line under savepoints. */
  private async writeBatch(manager: EntityManager, project: Project, lines: { number: number; line: ParsedLine }[], options: ImportOptions, part: ImportReport, actor: ImportActor): Promise<void> {
    const refuse = refuseIn(part);
    const oneByOne = await this.writeNewInBulk(manager, project, lines, options, part);
    // In email order (stable: a repeated email keeps its lines' order), as the bulk insert: users
    // are locked in the same order by every import, so two imports of the same users wait rather than deadlock.
    oneByOne.sort((a, b) => compareEmails(a.line, b.line));
    for (const { number, line } of oneByOne) {
      // A user another import created meanwhile (this line waited for its commit on the unique index)
      // is there on a second try: the line is then skipped, updated or a conflict as any other.
      for (let attempt = 1; ; attempt += 1) {
        await manager.query('SAVEPOINT import_line');
        try {
          const outcome = await this.write(manager, project, line, options, actor);
          await manager.query('RELEASE SAVEPOINT import_line');
          if (outcome.kind === 'conflict') refuse(number, 'conflict', outcome.detail);
          else {
            part.counts[outcome.kind] += 1;
            if (outcome.kind !== 'skipped' && line.weak && !outcome.credentialsKept) part.weak_hashes += 1;
            if (outcome.credentialsKept) part.credentials_kept += 1;
          }
          break;
        } catch (err) {
          await manager.query('ROLLBACK TO SAVEPOINT import_line');
          const constraint = uniqueViolation(err);
          if (attempt === 1 && (constraint === 'users_project_email_uq' || constraint === 'users_project_external_id')) continue;
          if (err instanceof LineConflict) refuse(number, 'conflict', err.message);
          else if (constraint !== null) refuse(number, 'conflict', 'The username, email or a social identity belongs to another user of the project.');
          else throw err;
          break;
        }
      }
    }
  }

  /**
   * The bulk of an import: lines of users that exist nowhere yet (no match by email or external id,
   * once in the batch) and bring only a user and a hash, written in two statements. Returns the
   * lines left to write one by one: the others, or all of them when the bulk insert met a conflict
   * (a username taken, a user created meanwhile) — undone to its savepoint.
   */
  private async writeNewInBulk(manager: EntityManager, project: Project, lines: { number: number; line: ParsedLine }[], options: ImportOptions, report: ImportReport): Promise<{ number: number; line: ParsedLine }[]> {
    const emails = lines.map((l) => l.line.email.toLowerCase());
    const externalIds = lines.flatMap((l) => (l.line.dto.external_id ? [l.line.dto.external_id] : []));
    const existing = await this.users.existingForImport(manager, project.id, emails, externalIds);
    const seen = new Set<string>();
    const bulk: { number: number; line: ParsedLine }[] = [];
    const rest: { number: number; line: ParsedLine }[] = [];
    for (const l of lines) {
      const { dto } = l.line;
      const email = l.line.email.toLowerCase();
      const ext = dto.external_id ? `ext:${dto.external_id}` : null;
      const plain = !dto.totp_secret && !dto.phone_number && !dto.identities?.length && dto.status !== 'disabled';
      const fresh = !existing.emails.has(email) && !(dto.external_id && existing.externalIds.has(dto.external_id)) && !seen.has(email) && !(ext && seen.has(ext));
      seen.add(email);
      if (ext) seen.add(ext);
      (plain && fresh ? bulk : rest).push(l);
    }
    if (bulk.length === 0) return rest;
    // In email order, as every import takes them: two imports of the same users wait for each other rather than deadlock.
    bulk.sort((a, b) => compareEmails(a.line, b.line));
    await manager.query('SAVEPOINT import_bulk');
    try {
      const ids = await this.users.insertImportedBatch(
        manager,
        project.tenantId,
        project.id,
        bulk.map(({ line }) => ({ email: line.email, emailVerified: line.dto.email_verified ?? false, username: line.username, metadata: line.dto.metadata ?? {}, externalId: line.dto.external_id ?? null, createdAt: line.dto.created_at ? new Date(line.dto.created_at) : null, hash: line.hash })),
      );
      if (options.emitEvents) for (const [i, { line }] of bulk.entries()) await this.userCreated(manager, project, ids[i], line.email);
      await manager.query('RELEASE SAVEPOINT import_bulk');
    } catch (err) {
      await manager.query('ROLLBACK TO SAVEPOINT import_bulk');
      if (uniqueViolation(err) === null) throw err;
      return lines;
    }
    report.counts.created += bulk.length;
    report.weak_hashes += bulk.filter(({ line }) => line.weak).length;
    return rest;
  }

  private userCreated(manager: EntityManager, project: Project, userId: string, email: string): Promise<string> {
    return this.events.record(manager, { ...userEvent(project, userId, email), action: 'user.created' });
  }

  /** One line, validated as a request body would be; the password hash read in its scheme. */
  private async parse(text: string, options: ImportOptions): Promise<ParsedLine | { problem: ProblemError }> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { problem: new ProblemError('invalid-json', { detail: 'The line is not valid JSON.' }) };
    }
    let dto: ImportLineDto;
    try {
      dto = (await this.pipe.transform(value, { type: 'body', metatype: ImportLineDto })) as ImportLineDto;
    } catch (err) {
      if (err instanceof ProblemError) return { problem: err };
      throw err;
    }
    if (dto.metadata && JSON.stringify(dto.metadata).length > 8192) return { problem: ProblemError.validation({ metadata: ['must be at most 8 KiB of JSON'] }) };
    let hash: { scheme: string; hash: string } | null = null;
    if (dto.password_hash !== undefined && dto.password_hash !== null) {
      try {
        hash = parseImportedHash(dto.password_hash, { allowWeak: options.allowWeakHashes, firebase: options.firebase });
      } catch (err) {
        if (err instanceof ImportedHashError) return { problem: ProblemError.validation({ password_hash: [err.message] }) };
        throw err;
      }
    }
    return {
      dto,
      email: dto.email,
      username: dto.username ? dto.username.toLowerCase() : null,
      hash,
      weak: hash !== null && (WEAK_SCHEMES as readonly string[]).includes(hash.scheme),
    };
  }

  /**
   * One line. An update of a user who has signed in here or changed their credentials here (a
   * password change or reset, an account claim) changes their metadata and external id only: the
   * line's email, username, password hash, TOTP secret, phone and identities would otherwise bring
   * back what the user replaced or removed (an old address after an email change, an old export's
   * password after a reset, an identity an account claim cut off).
   */
  private async write(manager: EntityManager, project: Project, line: ParsedLine, options: ImportOptions, actor: ImportActor): Promise<{ kind: 'created' | 'updated' | 'skipped'; credentialsKept?: boolean } | { kind: 'conflict'; detail: string }> {
    const { dto } = line;
    const matches = await this.users.findImportMatches(manager, project.id, line.email, dto.external_id ?? null);
    if (matches.length > 1) return { kind: 'conflict', detail: 'The email and the external id name two different users.' };
    let userId: string;
    let kind: 'created' | 'updated';
    let owned = false;
    let credentialsKept = false;
    if (matches.length === 1) {
      if (options.onConflict === 'skip') return { kind: 'skipped' };
      if (options.onConflict === 'conflict') return { kind: 'conflict', detail: 'A user with this email or external id exists.' };
      userId = matches[0].id;
      kind = 'updated';
      const current = await this.users.lockForImportUpdate(manager, userId);
      owned = current.owned;
      if (owned) {
        // Theirs now: the email, its verification, the username and every credential stay; the profile is updated.
        credentialsKept = wouldChangeAccount(line, current);
        await this.users.updateImported(manager, userId, { metadata: dto.metadata, externalId: dto.external_id ?? null });
      } else {
        await this.users.updateImported(manager, userId, {
          email: line.email,
          emailVerified: dto.email_verified,
          ...(dto.username !== undefined ? { username: line.username } : {}),
          metadata: dto.metadata,
          externalId: dto.external_id ?? null,
        });
      }
      if (dto.status === 'disabled' && current.status !== 'disabled') await this.disable(manager, project, userId, actor);
    } else {
      kind = 'created';
      userId = await this.users.insertImported(manager, {
        tenantId: project.tenantId,
        projectId: project.id,
        email: line.email,
        emailVerified: dto.email_verified ?? false,
        username: line.username,
        metadata: dto.metadata ?? {},
        externalId: dto.external_id ?? null,
        createdAt: dto.created_at ? new Date(dto.created_at) : null,
        // No hash: the password lives in the old system, asked at the first sign-in (lazy migration).
        needsMigration: line.hash === null,
        status: dto.status ?? 'active',
      });
    }
    if (!owned) await this.writeCredentials(manager, project, userId, line, kind);
    if (options.emitEvents) {
      if (kind === 'created') await this.userCreated(manager, project, userId, line.email);
      else await this.events.record(manager, { ...userEvent(project, userId, line.email), action: 'user.updated' });
    }
    return { kind, credentialsKept };
  }

  /**
   * An update line says the user is disabled in the system they come from: disabled here too, as an
   * admin disables (every session revoked and marked in the shared cache before commit, one
   * `session.revoked` each), whether or not the user has signed in here. A line never re-enables
   * a disabled user (`active`, or no status, leaves them disabled): enabling stays an admin's act.
   */
  private async disable(manager: EntityManager, project: Project, userId: string, actor: ImportActor): Promise<void> {
    // Thrown inside the line's savepoint: nothing of the line is written (an admin cannot lock themselves out, as with PATCH).
    if (userId === actor.userId) throw new LineConflict('You cannot disable your own account.');
    await this.users.update(manager, userId, { status: 'disabled' });
    const revoked = await this.sessions.revokeAllOfUser(manager, userId, 'user_disabled', this.clock.now());
    await this.tokens.markRevoked(revoked);
    await this.events.sessionsRevoked(manager, { tenantId: project.tenantId, projectId: project.id, actorType: actor.userId ? 'admin' : 'system', actorId: actor.userId, meta: actor.meta }, userId, revoked, 'user_disabled');
  }

  /** The line's password hash, TOTP secret, SMS phone and social identities, on the user it created or updates. */
  private async writeCredentials(manager: EntityManager, project: Project, userId: string, line: ParsedLine, kind: 'created' | 'updated'): Promise<void> {
    const { dto } = line;
    if (line.hash) {
      await this.users.setPassword(manager, userId, line.hash.hash, line.hash.scheme as never);
      if (kind === 'updated') await this.users.completeMigration(manager, userId);
    }
    const now = new Date();
    if (dto.totp_secret) {
      const secret = dto.totp_secret.replace(/=+$/, '').toUpperCase();
      await this.factors.upsertEnabled(manager, { tenantId: project.tenantId, projectId: project.id, userId, type: 'totp', secretEncrypted: encryptSecret(this.config.auth.encryptionKey, secret, totpSecretAad(userId)), phoneNumber: null }, now);
    }
    if (dto.phone_number) {
      await this.factors.upsertEnabled(manager, { tenantId: project.tenantId, projectId: project.id, userId, type: 'sms', secretEncrypted: null, phoneNumber: dto.phone_number }, now);
    }
    for (const identity of dto.identities ?? []) {
      const owner = await this.identities.ownerOf(manager, project.id, identity.provider, identity.subject);
      if (owner === userId) continue;
      // Thrown inside the line's savepoint: everything the line wrote is undone.
      if (owner) throw new LineConflict(`The ${identity.provider} identity ${identity.subject} belongs to another user of the project.`);
      await this.identities.create(manager, { tenantId: project.tenantId, projectId: project.id, userId, provider: identity.provider, subject: identity.subject, email: identity.email ?? null, lastUsedAt: null });
    }
  }
}

/** `user.created` / `user.updated` of an imported user (`emit_events`), as provisioning writes them, marked `source: import`. */
function userEvent(project: Project, userId: string, email: string) {
  return { tenantId: project.tenantId, projectId: project.id, actorType: 'system' as const, actorId: null, resourceType: 'user', resourceId: userId, data: { user: { id: userId, email, project_id: project.id }, source: 'import' } };
}

/** Whether an update line would change an owned user's sign-in identifiers or credentials (what `credentials_kept` counts). */
function wouldChangeAccount(line: ParsedLine, current: { email: string; email_verified: boolean; username: string | null }): boolean {
  const { dto } = line;
  return (
    line.hash !== null ||
    !!dto.totp_secret ||
    !!dto.phone_number ||
    !!dto.identities?.length ||
    line.email.toLowerCase() !== current.email.toLowerCase() ||
    (dto.username !== undefined && line.username !== current.username) ||
    (dto.email_verified !== undefined && dto.email_verified !== current.email_verified)
  );
}

function compareEmails(a: ParsedLine, b: ParsedLine): number {
  const x = a.email.toLowerCase();
  const y = b.email.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

function emptyReport(): ImportReport {
  return { counts: { created: 0, updated: 0, skipped: 0, conflicts: 0, rejected: 0 }, weak_hashes: 0, credentials_kept: 0, errors: [] };
}

/** Counts a refused line in `report` and lists it (the first MAX_REPORTED_ERRORS). */
function refuseIn(report: ImportReport) {
  return (line: number, type: string, detail: string, errors?: FieldErrors) => {
    if (type === 'conflict') report.counts.conflicts += 1;
    else report.counts.rejected += 1;
    if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push({ line, type, detail, ...(errors ? { errors } : {}) });
  };
}

/** A committed batch's outcomes added to the import's report. */
function merge(report: ImportReport, part: ImportReport): void {
  for (const key of Object.keys(part.counts) as (keyof ImportReport['counts'])[]) report.counts[key] += part.counts[key];
  report.weak_hashes += part.weak_hashes;
  report.credentials_kept += part.credentials_kept;
  for (const e of part.errors) if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(e);
}

/** A line that cannot be written as it is (reported as a conflict). */
class LineConflict extends Error {}

interface ParsedLine {
  dto: ImportLineDto;
  email: string;
  username: string | null;
  hash: { scheme: string; hash: string } | null;
  weak: boolean;
}
