import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { deadlockDetected, uniqueViolation, type Project } from '@gatehouse/entities';
import { UsersRepository } from '@gatehouse/identity';
import { decideOnLineError, type OnConflict } from './conflict-policy';
import { emptyReport, mergeReport, refuseIn, type ImportReport } from './import-report';
import type { NumberedLine, ParsedLine } from './line-parser';
import { ImportLineWriter, type ImportActor } from './line-writer';

/** Lines in one transaction: a failure costs at most this many lines' work, and a million lines are not one transaction. */
const BATCH = 200;
/** A batch aborted by a deadlock with another import is run again, this many times at most. */
const MAX_BATCH_ATTEMPTS = 5;

/**
 * An import's lines written in transactions of `BATCH` lines: new plain users in bulk, the rest one
 * by one with a savepoint per line, so a line that fails at the database is undone alone. Users
 * are written in email order by every import, so two imports of the same users wait for each
 * other rather than deadlock; a batch PostgreSQL aborts all the same is run again whole.
 */
@Injectable()
export class ImportBatchRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly writer: ImportLineWriter,
  ) {}

  /** Every line of `lines`, its outcome counted in `report` once its batch has committed. */
  async run(
    project: Project,
    lines: AsyncIterable<NumberedLine>,
    options: { onConflict: OnConflict; emitEvents: boolean },
    actor: ImportActor,
    report: ImportReport,
  ): Promise<void> {
    let batch: NumberedLine[] = [];
    for await (const line of lines) {
      batch.push(line);
      if (batch.length < BATCH) continue;
      mergeReport(report, await this.commit(project, batch, options, actor));
      batch = [];
    }
    if (batch.length > 0) mergeReport(report, await this.commit(project, batch, options, actor));
  }

  /**
   * One batch in its transaction; its outcomes. Another import writing the same users in another
   * order can deadlock with it: PostgreSQL aborts one transaction, which is then run again whole
   * (its counts kept apart until it commits).
   */
  private async commit(
    project: Project,
    lines: NumberedLine[],
    options: { onConflict: OnConflict; emitEvents: boolean },
    actor: ImportActor,
  ): Promise<ImportReport> {
    for (let attempt = 1; ; attempt += 1) {
      const part = emptyReport();
      try {
        await this.dataSource.transaction((manager) =>
          this.writeBatch(manager, project, lines, options, part, actor),
        );
        return part;
      } catch (err) {
        if (!deadlockDetected(err) || attempt >= MAX_BATCH_ATTEMPTS) throw err;
        await sleep(randomInt(20, 200));
      }
    }
  }

  /** One batch, in its transaction: new plain users in bulk, the rest line by line under savepoints. */
  private async writeBatch(
    manager: EntityManager,
    project: Project,
    lines: NumberedLine[],
    options: { onConflict: OnConflict; emitEvents: boolean },
    part: ImportReport,
    actor: ImportActor,
  ): Promise<void> {
    const refuse = refuseIn(part);
    const oneByOne = await this.writeNewInBulk(manager, project, lines, options, part);
    // In email order (stable: a repeated email keeps its lines' order), as the bulk insert: users
    // are locked in the same order by every import, so two imports of the same users wait rather than deadlock.
    oneByOne.sort((a, b) => compareEmails(a.line, b.line));
    for (const { number, line } of oneByOne) {
      for (let attempt = 1; ; attempt += 1) {
        await manager.query('SAVEPOINT import_line');
        try {
          const outcome = await this.writer.write(manager, project, line, options, actor);
          await manager.query('RELEASE SAVEPOINT import_line');
          if (outcome.kind === 'conflict') refuse(number, 'conflict', outcome.detail);
          else {
            part.counts[outcome.kind] += 1;
            if (outcome.kind !== 'skipped' && line.weak && !outcome.credentialsKept)
              part.weak_hashes += 1;
            if (outcome.credentialsKept) part.credentials_kept += 1;
          }
          break;
        } catch (err) {
          await manager.query('ROLLBACK TO SAVEPOINT import_line');
          const decision = decideOnLineError(err, attempt);
          if (decision.kind === 'retry') continue;
          if (decision.kind === 'throw') throw err;
          refuse(number, 'conflict', decision.detail);
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
  private async writeNewInBulk(
    manager: EntityManager,
    project: Project,
    lines: NumberedLine[],
    options: { emitEvents: boolean },
    report: ImportReport,
  ): Promise<NumberedLine[]> {
    const emails = lines.map((l) => l.line.email.toLowerCase());
    const externalIds = lines.flatMap((l) =>
      l.line.dto.external_id ? [l.line.dto.external_id] : [],
    );
    const existing = await this.users.existingForImport(manager, project.id, emails, externalIds);
    const seen = new Set<string>();
    const bulk: NumberedLine[] = [];
    const rest: NumberedLine[] = [];
    for (const l of lines) {
      const { dto } = l.line;
      const email = l.line.email.toLowerCase();
      const ext = dto.external_id ? `ext:${dto.external_id}` : null;
      const plain =
        !dto.totp_secret &&
        !dto.phone_number &&
        !dto.identities?.length &&
        dto.status !== 'disabled';
      const fresh =
        !existing.emails.has(email) &&
        !(dto.external_id && existing.externalIds.has(dto.external_id)) &&
        !seen.has(email) &&
        !(ext && seen.has(ext));
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
        bulk.map(({ line }) => ({
          email: line.email,
          emailVerified: line.dto.email_verified ?? false,
          username: line.username,
          metadata: line.dto.metadata ?? {},
          externalId: line.dto.external_id ?? null,
          createdAt: line.dto.created_at ? new Date(line.dto.created_at) : null,
          hash: line.hash,
        })),
      );
      if (options.emitEvents)
        for (const [i, { line }] of bulk.entries())
          await this.writer.userCreated(manager, project, ids[i], line.email);
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
}

function compareEmails(a: ParsedLine, b: ParsedLine): number {
  const x = a.email.toLowerCase();
  const y = b.email.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
