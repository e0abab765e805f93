import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventRecorder, SigningKeysService, type RequestMeta } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { isId } from '../common/ids';
import { paginated, type Page } from '../common/pagination';
import { ProjectsRepository } from '../projects/projects.repository';
import { toSigningKeyResponse } from './signing-key.response';
import { SigningKeysRepository } from './signing-keys.repository';

const notFound = () => new ProblemError('not-found', { detail: 'No such project.' });

/**
 * Listing and rotating a project's ES256 keys. Rotation makes a new active key; the previous one
 * turns `retiring` and keeps verifying (and stays in jwks.json) for the longest access-token
 * lifetime. Rotations of one project are serialised by a lock on its row.
 */
@Injectable()
export class AdminSigningKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly keysRepo: SigningKeysRepository,
    private readonly keys: SigningKeysService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = isId(projectId) ? await this.projects.findInTenant(admin.tenantId, projectId) : null;
    if (!project) throw notFound();
    const [rows, total] = await this.keysRepo.list(admin.tenantId, project.id, page);
    const now = this.clock.nowMs();
    return paginated('signing_keys', rows.map((k) => toSigningKeyResponse(k, now)), page, total);
  }

  async rotate(admin: AdminContext, projectId: string, meta: RequestMeta) {
    if (!isId(projectId)) throw notFound();
    const key = await this.dataSource.transaction(async (manager) => {
      const project = await this.projects.lockInTenant(manager, admin.tenantId, projectId);
      if (!project) throw notFound();
      const created = await this.keys.rotate(manager, admin.tenantId, project.id);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: project.id,
          action: 'signing_key.rotated',
          resourceType: 'signing_key',
          resourceId: created.id,
          data: { signing_key: { id: created.id, kid: created.kid, project_id: project.id } },
        }),
      );
      return created;
    });
    return toSigningKeyResponse(key, this.clock.nowMs());
  }
}
