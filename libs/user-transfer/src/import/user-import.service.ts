import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FirebaseScryptParameters } from '@gatehouse/crypto';
import type { Project } from '@gatehouse/entities';
import { EventRecorder } from '@gatehouse/identity';
import { ImportBatchRunner } from './batch-runner';
import type { OnConflict } from './conflict-policy';
import { emptyReport, refuseIn, type ImportReport } from './import-report';
import { ImportLineParser } from './line-parser';
import type { ImportActor } from './line-writer';

export interface ImportOptions {
  onConflict: OnConflict;
  allowWeakHashes: boolean;
  emitEvents: boolean;
  firebase: FirebaseScryptParameters | null;
}

/**
 * User import (docs/api-contract.md §12): NDJSON lines streamed from the request, validated one by one (a
 * malformed line is reported and the rest go on: ImportLineParser), written in transactions of
 * 200 lines with a savepoint per line, so a line that fails at the database is undone alone
 * (ImportBatchRunner). Idempotent through the email and the external id, as `on_conflict` says
 * (the conflict policy). One `users.imported` audit event with the counts; `user.created` per user
 * only with `emit_events`.
 */
@Injectable()
export class UserImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly parser: ImportLineParser,
    private readonly batches: ImportBatchRunner,
    private readonly events: EventRecorder,
  ) {}

  async import(
    project: Project,
    body: Readable,
    options: ImportOptions,
    actor: ImportActor,
  ): Promise<ImportReport> {
    const report = emptyReport();
    await this.batches.run(
      project,
      this.parser.lines(body, options, refuseIn(report)),
      options,
      actor,
      report,
    );
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
        data: {
          project_id: project.id,
          counts: report.counts,
          weak_hashes: report.weak_hashes,
          credentials_kept: report.credentials_kept,
          on_conflict: options.onConflict,
        },
      }),
    );
    return report;
  }
}
