import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId, type SigningKeyAlgorithm } from '@gatehouse/entities';
import {
  AccessTokensService,
  EventRecorder,
  ProjectsRepository,
  SigningKeysService,
  type RequestMeta,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import { projectNotFound, tenantProject } from '../common/tenant-project';
import { toSigningKeyResponse } from './signing-key.response';

/**
 * Listing, rotating and revoking a project's keys (ES256 for access tokens, RS256 for OpenID
 * Connect clients that ask for it). Rotation makes a new active key of one algorithm, which signs
 * the next token of every instance; the previous one of that algorithm turns `retiring` and keeps verifying
 * (and stays in jwks.json) for the longest access-token lifetime. Revoking a key that is not the
 * active one ends it at once: its tokens are refused on every instance from the next request and
 * jwks.json drops it. Changes of one project's keys are serialised by a lock on its row.
 */
@Injectable()
export class AdminSigningKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly keys: SigningKeysService,
    private readonly tokens: AccessTokensService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async list(admin: AdminContext, projectId: string, page: Page) {
    const project = await tenantProject(this.projects, admin.tenantId, projectId);
    const [rows, total] = await this.keys.list(admin.tenantId, project.id, page);
    const now = this.clock.nowMs();
    return paginated(
      'signing_keys',
      rows.map((k) => toSigningKeyResponse(k, now)),
      page,
      total,
    );
  }

  async rotate(
    admin: AdminContext,
    projectId: string,
    algorithm: SigningKeyAlgorithm,
    meta: RequestMeta,
  ) {
    if (!isId(projectId)) throw projectNotFound();
    const key = await this.dataSource.transaction(async (manager) => {
      const project = await this.projects.lockInTenant(manager, admin.tenantId, projectId);
      if (!project) throw projectNotFound();
      const created = await this.keys.rotate(manager, admin.tenantId, project.id, algorithm);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: project.id,
          action: 'signing_key.rotated',
          resourceType: 'signing_key',
          resourceId: created.id,
          data: {
            signing_key: {
              id: created.id,
              kid: created.kid,
              algorithm: created.algorithm,
              project_id: project.id,
            },
          },
        }),
      );
      return created;
    });
    return toSigningKeyResponse(key, this.clock.nowMs());
  }

  /** 200 with the revoked key; 409 for the active key (rotate first); 404 for a key not of this project. */
  async revoke(admin: AdminContext, projectId: string, keyId: string, meta: RequestMeta) {
    if (!isId(projectId)) throw projectNotFound();
    const key = await this.dataSource.transaction(async (manager) => {
      const project = await this.projects.lockInTenant(manager, admin.tenantId, projectId);
      if (!project) throw projectNotFound();
      const outcome = isId(keyId)
        ? await this.keys.revoke(manager, admin.tenantId, project.id, keyId)
        : null;
      if (outcome === null) throw new ProblemError('not-found', { detail: 'No such signing key.' });
      if (outcome === 'active')
        throw new ProblemError('conflict', {
          detail:
            'The active signing key cannot be revoked; rotate first, then revoke the old key.',
        });
      if (!outcome.changed) return outcome.key;
      // Marked before commit, as revoked sessions are: no instance accepts its tokens once the answer is out.
      await this.tokens.markKeyRevoked(outcome.key.kid);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: project.id,
          action: 'signing_key.revoked',
          resourceType: 'signing_key',
          resourceId: outcome.key.id,
          data: {
            signing_key: {
              id: outcome.key.id,
              kid: outcome.key.kid,
              algorithm: outcome.key.algorithm,
              project_id: project.id,
            },
          },
        }),
      );
      return outcome.key;
    });
    return toSigningKeyResponse(key, this.clock.nowMs());
  }
}
