import { Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiProduces, ApiQuery } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { firebaseParametersOf } from '@gatehouse/crypto';
import { ClientMeta, ProjectsRepository, requestMeta, type RequestMeta } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { UserExportService, UserImportService, type OnConflict } from '@gatehouse/user-transfer';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { assertRecentProof } from '../auth/recent-proof';
import { AdminController, AdminRoute } from '../common/admin-route';
import { QueryReader } from '../common/query-params';
import { tenantProject } from '../common/tenant-project';
import { ImportReportResponse } from './import-report.response';

const USERS_ROUTE = 'v1/admin/projects/:id/users';
const IMPORT_ROUTE = 'import';
/** The import route, as its decorators make it: its NDJSON body is left unread by the body parser for the route to stream (app-factory). */
export const USER_IMPORT_ROUTE = `/${USERS_ROUTE}/${IMPORT_ROUTE}`;

@AdminController('users', USERS_ROUTE)
export class UserTransferController {
  constructor(
    private readonly imports: UserImportService,
    private readonly exports: UserExportService,
    @Inject(ProjectsRepository) private readonly projects: ProjectsRepository,
    private readonly clock: Clock,
  ) {}

  @AdminRoute.post(
    IMPORT_ROUTE,
    200,
    {
      summary:
        'Import users from an `application/x-ndjson` body, one user a line, streamed; answers the report (docs/migration.md)',
      description:
        'With `on_conflict=update` (its lines may overwrite passwords and TOTP secrets), the admin needs a recent proof of identity: 403 `reauthentication-required` before any line is read (`POST /v1/auth/reauthenticate` renews it).',
    },
    ImportReportResponse,
    ApiConsumes('application/x-ndjson'),
    ApiQuery({
      name: 'on_conflict',
      required: false,
      enum: ['skip', 'update', 'conflict'],
      description:
        'A line whose email or external id names an existing user: `skip` (default), `update` (its members replace the user’s; for a user who has signed in or changed credentials here, only metadata and external id), or `conflict` (reported)',
    }),
    ApiQuery({ name: 'allow_weak_hashes', required: false, enum: ['true', 'false'] }),
    ApiQuery({ name: 'emit_events', required: false, enum: ['true', 'false'] }),
    ApiQuery({
      name: 'signer_key',
      required: false,
      description: "Firebase scrypt: the project's base64 signer key",
    }),
    ApiQuery({ name: 'salt_separator', required: false, description: 'Firebase scrypt: base64' }),
    ApiQuery({ name: 'rounds', required: false }),
    ApiQuery({ name: 'mem_cost', required: false }),
  )
  async import(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<ImportReportResponse> {
    const r = new QueryReader(query);
    const onConflict = (r.string('on_conflict', 16) ?? 'skip') as OnConflict;
    if (!['skip', 'update', 'conflict'].includes(onConflict))
      r.fail('on_conflict', 'must be skip, update or conflict');
    const allowWeakHashes = flag(r, 'allow_weak_hashes');
    const emitEvents = flag(r, 'emit_events');
    const firebase = firebaseParametersOf({
      signer_key: r.string('signer_key', 512),
      salt_separator: r.string('salt_separator', 64),
      rounds: r.string('rounds', 4),
      mem_cost: r.string('mem_cost', 4),
    });
    if (typeof firebase === 'string') r.fail('signer_key', firebase);
    r.done();
    const project = await tenantProject(this.projects, admin.tenantId, id);
    // Each batch commits as the body streams in, so the decision is made before any line is read: any update line may write credentials.
    if (onConflict === 'update') assertRecentProof(admin, this.clock.nowMs());
    if (!req.is('application/x-ndjson'))
      throw new ProblemError('unsupported-media-type', {
        detail: 'The request body must be application/x-ndjson: one JSON object a line.',
      });
    const report = await this.imports.import(
      project,
      req,
      {
        onConflict,
        allowWeakHashes,
        emitEvents,
        firebase: typeof firebase === 'string' ? null : firebase,
      },
      { tenantId: admin.tenantId, userId: admin.userId, meta: requestMeta(req) },
    );
    // The answer is docs/api-contract.md §12's report exactly; the weak-hash count goes to the users.imported audit event.
    return { counts: report.counts, errors: report.errors };
  }

  @AdminRoute.get(
    'export',
    {
      summary:
        "Stream the project's users as NDJSON in the import format; password hashes and TOTP secrets only with `include_password_hashes=true` (a security event)",
      description:
        'With `include_password_hashes=true` the admin needs a recent proof of identity: 403 `reauthentication-required` otherwise (`POST /v1/auth/reauthenticate` renews it).',
    },
    {
      description: 'One user a line, each line an import line (docs/api-contract.md §12)',
      content: {
        'application/x-ndjson': {
          schema: { type: 'string', description: 'Newline-delimited JSON objects' },
        },
      },
    },
    ApiProduces('application/x-ndjson'),
    ApiQuery({ name: 'include_password_hashes', required: false, enum: ['true', 'false'] }),
  )
  async export(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @ClientMeta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    const r = new QueryReader(query);
    const withSecrets = flag(r, 'include_password_hashes');
    r.done();
    const project = await tenantProject(this.projects, admin.tenantId, id);
    if (withSecrets) assertRecentProof(admin, this.clock.nowMs());
    await this.exports.export(project, withSecrets, res, {
      tenantId: admin.tenantId,
      userId: admin.userId,
      meta,
    });
  }
}

function flag(r: QueryReader, name: string): boolean {
  const value = r.string(name, 5);
  if (value !== undefined && value !== 'true' && value !== 'false')
    r.fail(name, 'must be true or false');
  return value === 'true';
}
