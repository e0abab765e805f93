import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, exportedPasswordHash } from '@gatehouse/crypto';
import type { Project } from '@gatehouse/entities';
import {
  EventRecorder,
  totpSecretAad,
  UsersRepository,
  type ExportRow,
  type RequestMeta,
} from '@gatehouse/identity';

const PAGE = 500;

/**
 * User export (docs/api-contract.md §12): the project's users as NDJSON in the import format, page after page
 * (keyset on the id, so memory stays flat and a user added meanwhile is not read twice). Password
 * hashes and TOTP secrets only when asked, and that is audited as a security event first.
 */
@Injectable()
export class UserExportService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly events: EventRecorder,
  ) {}

  async export(
    project: Project,
    withSecrets: boolean,
    res: Response,
    actor: { tenantId: string; userId: string; meta: RequestMeta },
  ): Promise<void> {
    await this.dataSource.transaction((manager) =>
      this.events.record(manager, {
        tenantId: actor.tenantId,
        projectId: project.id,
        actorType: 'admin',
        actorId: actor.userId,
        action: withSecrets ? 'users.exported_with_secrets' : 'users.exported',
        resourceType: 'project',
        resourceId: project.id,
        meta: actor.meta,
        data: { project_id: project.id, include_password_hashes: withSecrets },
      }),
    );
    res.status(200).setHeader('content-type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="users-${project.id}.ndjson"`);
    let after: string | null = null;
    for (;;) {
      const rows = await this.users.exportPage(project.id, after, PAGE);
      if (rows.length === 0) break;
      const chunk =
        rows.map((row) => JSON.stringify(this.line(row, withSecrets))).join('\n') + '\n';
      // Back-pressure: wait for the client to take a page before reading the next.
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      after = rows[rows.length - 1].id;
      if (rows.length < PAGE) break;
    }
    res.end();
  }

  private line(row: ExportRow, withSecrets: boolean): Record<string, unknown> {
    const line: Record<string, unknown> = {
      email: row.email,
      email_verified: row.email_verified,
      ...(row.username ? { username: row.username } : {}),
      status: row.status,
      metadata: row.metadata,
      created_at: new Date(row.created_at).toISOString(),
      // The id it had where it came from, else ours: a re-import into another project stays idempotent.
      external_id: row.external_id ?? row.id,
      ...(row.identities.length
        ? {
            identities: row.identities.map((i) => ({
              provider: i.provider,
              subject: i.subject,
              ...(i.email ? { email: i.email } : {}),
            })),
          }
        : {}),
      ...(row.phone_number ? { phone_number: row.phone_number } : {}),
    };
    if (withSecrets) {
      if (row.password_hash && row.scheme)
        line.password_hash = exportedPasswordHash(row.password_hash, row.scheme);
      if (row.totp_secret_encrypted)
        line.totp_secret = decryptSecretString(
          this.config.auth.encryptionKey,
          row.totp_secret_encrypted,
          totpSecretAad(row.id),
        );
    }
    return line;
  }
}
