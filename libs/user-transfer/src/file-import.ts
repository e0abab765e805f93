import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import type { FirebaseScryptParameters } from '@gatehouse/crypto';
import { DatabaseModule, isId, Project } from '@gatehouse/entities';
import { IdentityModule } from '@gatehouse/identity';
import { CacheStore, MemoryCacheStore, PlatformConfigModule } from '@gatehouse/platform';
import type { OnConflict } from './import/conflict-policy';
import type { ImportReport } from './import/import-report';
import { UserImportService } from './import/user-import.service';
import { UserTransferServicesModule } from './user-transfer.module';
import { ndjsonStream, type ConvertedLine } from './formats/lines';
import { CONVERTERS, type SourceFormat } from './formats/source-formats';

/** What `npm run cli -- users import` asks for (docs/api-contract.md §12). */
export interface FileImportRequest {
  projectId: string;
  file: string;
  format: SourceFormat;
  onConflict: OnConflict;
  allowWeakHashes: boolean;
  emitEvents: boolean;
  firebase: FirebaseScryptParameters | null;
  /** `--login-phones`: verified sign-in numbers become SMS second factors too (ConvertOptions). */
  loginPhones: boolean;
}

export type FileImportResult = { kind: 'report'; report: ImportReport } | { kind: 'no-project' };

/** The import writes only to Postgres: an in-process cache stands in for the shared one. */
@Global()
@Module({
  providers: [{ provide: CacheStore, useValue: new MemoryCacheStore() }],
  exports: [CacheStore],
})
class LocalCacheModule {}

/** The notes kept for the report: as many as it lists (refused lines come in line order, so the first ones are the ones listed). */
const MAX_NOTES = 1000;

/**
 * `users import` (tools/scripts/cli.ts): the file read as a stream (gunzipped when it is gzip, as
 * Auth0's bulk export is), converted from the vendor's format into our lines on the fly, and
 * imported by the UserImportService the control plane's route runs, in a Nest context of just
 * what it needs (Postgres; no HTTP, no Redis). The actor is the system. A converter's notes (why a
 * record could not become a user) replace the import's generic detail for their lines.
 */
export async function importUsersFile(
  config: AppConfig,
  request: FileImportRequest,
): Promise<FileImportResult> {
  @Module({
    imports: [
      PlatformConfigModule.forRoot(config),
      DatabaseModule.forRoot(),
      LocalCacheModule,
      IdentityModule,
      UserTransferServicesModule,
    ],
  })
  class UserImportContextModule {}
  const ctx = await NestFactory.createApplicationContext(UserImportContextModule, {
    logger: false,
    abortOnError: false,
  });
  try {
    const project = isId(request.projectId)
      ? await ctx.get(DataSource).getRepository(Project).findOneBy({ id: request.projectId })
      : null;
    if (!project) return { kind: 'no-project' };
    const file = await openFile(request.file);
    const notes = new Map<number, string>();
    const body =
      request.format === 'gatehouse'
        ? file
        : ndjsonStream(
            noted(CONVERTERS[request.format](file, { loginPhones: request.loginPhones }), notes),
          );
    const report = await ctx.get(UserImportService).import(
      project,
      body,
      {
        onConflict: request.onConflict,
        allowWeakHashes: request.allowWeakHashes,
        emitEvents: request.emitEvents,
        firebase: request.firebase,
      },
      {
        tenantId: project.tenantId,
        userId: null,
        meta: { ip: null, userAgent: 'gatehouse-cli users import' },
      },
    );
    for (const error of report.errors) {
      const note = notes.get(error.line);
      if (note === undefined) continue;
      error.detail = note;
      delete error.errors;
    }
    return { kind: 'report', report };
  } finally {
    await ctx.close();
  }
}

/** The lines, their notes kept by line number. */
async function* noted(
  lines: AsyncIterable<ConvertedLine>,
  notes: Map<number, string>,
): AsyncGenerator<ConvertedLine> {
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.note !== undefined && notes.size < MAX_NOTES) notes.set(number, line.note);
    yield line;
  }
}

/** The file as a byte stream, gunzipped when it starts with gzip's magic bytes. */
async function openFile(path: string): Promise<Readable> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(2);
  try {
    await handle.read(magic, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const stream = createReadStream(path);
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) return stream;
  const gunzip = createGunzip();
  stream.on('error', (err) => gunzip.destroy(err));
  return stream.pipe(gunzip);
}
