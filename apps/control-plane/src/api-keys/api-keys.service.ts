import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { randomToken, sha256Hex } from '@gatehouse/crypto';
import {
  ApiKeysRepository,
  EventRecorder,
  ProjectsCache,
  ProjectsRepository,
  type RequestMeta,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import { tenantProject } from '../common/tenant-project';
import { toApiKeyResponse } from './api-key.response';
import type { CreateApiKeyDto } from './dto/create-api-key.dto';

const notFound = (what = 'project') =>
  new ProblemError('not-found', { detail: `No such ${what}.` });

/**
 * Server-side API keys `sk_…` (docs/api-contract.md §1, §6): 256 random bits, stored as SHA-256 only, the
 * secret shown once. A revoked key is refused by the runtime on the very next call.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly cache: ProjectsCache,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async create(admin: AdminContext, projectId: string, dto: CreateApiKeyDto, meta: RequestMeta) {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const secret = randomToken(32, 'sk_');
    const key = await this.dataSource.transaction(async (manager) => {
      const created = await this.keys.create(manager, {
        tenantId: admin.tenantId,
        projectId: project.id,
        name: dto.name,
        keyPrefix: secret.slice(0, 11),
        secretHash: sha256Hex(secret),
      });
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: project.id,
          action: 'api_key.created',
          resourceType: 'api_key',
          resourceId: created.id,
          data: {
            api_key: {
              id: created.id,
              project_id: project.id,
              name: created.name,
              key_prefix: created.keyPrefix,
            },
          },
        }),
      );
      return created;
    });
    return { ...toApiKeyResponse(key), secret };
  }

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const [rows, total] = await this.keys.listLive(admin.tenantId, project.id, page);
    return paginated('api_keys', rows.map(toApiKeyResponse), page, total);
  }

  async revoke(
    admin: AdminContext,
    projectId: string,
    keyId: string,
    meta: RequestMeta,
  ): Promise<void> {
    if (!isId(projectId) || !isId(keyId)) throw notFound('API key');
    const revoked = await this.dataSource.transaction(async (manager) => {
      const row = await this.keys.revoke(
        manager,
        admin.tenantId,
        projectId,
        keyId,
        this.clock.now(),
      );
      if (!row) return null;
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId,
          action: 'api_key.revoked',
          resourceType: 'api_key',
          resourceId: row.id,
          data: { api_key: { id: row.id, project_id: projectId, name: row.name } },
        }),
      );
      await this.cache.invalidateApiKeyHash(row.secret_hash);
      return row;
    });
    if (!revoked) throw notFound('API key');
    await this.cache.invalidateApiKeyHash(revoked.secret_hash).catch(() => undefined);
  }
}
