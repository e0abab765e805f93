import { isDeepStrictEqual } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { Project } from '@gatehouse/entities';
import {
  AccessTokensService,
  EventRecorder,
  ProjectsRepository,
  ProvisioningService,
  sealMigrationSecret,
  sealOAuthSecret,
  SessionRevocation,
  type RequestMeta,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { checkWebhookUrl } from '@gatehouse/webhooks';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { assertRecentProof } from '../auth/recent-proof';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import { projectNotFound, tenantProject } from '../common/tenant-project';
import type { CreateProjectDto } from './dto/create-project.dto';
import type { ProjectSettingsDto } from './dto/project-settings.dto';
import type { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectCacheInvalidator } from './project-cache-invalidator';
import { mergeSettings, unique, type MigrationSealer, type Sealer } from './project-settings';
import { toProjectResponse } from './project.response';
import { isRegisteredRedirectUrl, providerAddressErrors } from './url-rules';

/**
 * `settings.oidc.login_url` must be one of the project's redirect URLs (docs/api-contract.md §11), judged on
 * the project as it would be stored (the same PATCH may change either).
 */
function assertOidcLoginUrl(project: Pick<Project, 'redirectUrls' | 'settings'>): void {
  const loginUrl = project.settings.oidc?.login_url;
  if (typeof loginUrl === 'string' && !isRegisteredRedirectUrl(project.redirectUrls, loginUrl)) {
    throw ProblemError.validation({
      'settings.oidc.login_url': ["must be one of the project's redirect_urls"],
    });
  }
}

/** Settings whose values hold secrets (sealed provider and migration credentials): an update event says only that they changed. */
const SECRET_SETTINGS = new Set(['oauth_providers', 'password_migration']);

/** Projects of the admin's tenant: create (publishable key + first signing key), read, patch. */
@Injectable()
export class ProjectsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly provisioning: ProvisioningService,
    private readonly events: EventRecorder,
    private readonly invalidator: ProjectCacheInvalidator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: AccessTokensService,
    private readonly revocation: SessionRevocation,
    private readonly clock: Clock,
  ) {}

  private sealer(projectId: string): Sealer {
    return (provider, field, value) =>
      sealOAuthSecret(this.config, projectId, provider, field, value);
  }

  private migrationSealer(projectId: string): MigrationSealer {
    return (secret) => sealMigrationSecret(this.config, projectId, secret);
  }

  /** The lazy-migration URL is called by the runtime as a webhook is: the same address rules (SSRF). */
  private async assertMigrationUrl(settings: ProjectSettingsDto | undefined): Promise<void> {
    const url = settings?.password_migration?.url;
    if (url === undefined) return;
    const check = await checkWebhookUrl(url, { mode: this.config.webhooks.allowPrivateUrls });
    if (!check.ok)
      throw ProblemError.validation({ 'settings.password_migration.url': [check.message] });
  }

  /** Provider URLs the runtime would call at an address OAUTH_ALLOW_PRIVATE_URLS refuses: 400 on each field. */
  private assertProviderUrls(settings: ProjectSettingsDto | undefined): void {
    const errors = providerAddressErrors(
      settings?.oauth_providers,
      this.config.oauth.allowPrivateUrls,
    );
    if (Object.keys(errors).length > 0) throw ProblemError.validation(errors);
  }

  async list(tenantId: string, q: string | undefined, page: Page) {
    const [rows, total] = await this.projects.list(tenantId, q, page);
    return paginated('projects', rows.map(toProjectResponse), page, total);
  }

  async get(tenantId: string, id: string) {
    const project = await tenantProject(this.projects, tenantId, id);
    return toProjectResponse(project);
  }

  async create(admin: AdminContext, dto: CreateProjectDto, meta: RequestMeta) {
    this.assertProviderUrls(dto.settings);
    await this.assertMigrationUrl(dto.settings);
    const project = await this.dataSource.transaction(async (manager) => {
      const created = await this.provisioning.createProject(manager, admin.tenantId, {
        name: dto.name,
        allowedOrigins: unique(dto.allowed_origins ?? []),
        redirectUrls: unique(dto.redirect_urls ?? []),
      });
      if (dto.settings) {
        created.settings = mergeSettings(
          {},
          dto.settings,
          this.sealer(created.id),
          this.migrationSealer(created.id),
        ).settings;
        assertOidcLoginUrl(created);
        await this.projects.save(created, manager);
      }
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: created.id,
          action: 'project.created',
          resourceType: 'project',
          resourceId: created.id,
          data: { project: { id: created.id, name: created.name } },
        }),
      );
      return created;
    });
    await this.invalidator.invalidateAfterCommit(project);
    return toProjectResponse(project);
  }

  /**
   * PATCH with any subset (docs/api-contract.md §6, §10). The row is locked for the change, so concurrent
   * settings PATCHes merge instead of losing each other's keys; the shared cache is dropped so
   * the runtime applies new origins and settings on its next call.
   */
  async update(admin: AdminContext, id: string, dto: UpdateProjectDto, meta: RequestMeta) {
    if (!isId(id)) throw projectNotFound();
    this.assertProviderUrls(dto.settings);
    await this.assertMigrationUrl(dto.settings);
    const { project, changed } = await this.dataSource.transaction(async (manager) => {
      const row = await this.projects.lockInTenant(manager, admin.tenantId, id);
      if (!row) throw projectNotFound();
      const before = {
        name: row.name,
        allowedOrigins: row.allowedOrigins,
        redirectUrls: row.redirectUrls,
        settings: { ...row.settings } as Record<string, unknown>,
      };
      const fields: string[] = [];
      // Only what changes is recorded (docs/api-contract.md §13 `data.changes`): a field sent with its current value is not.
      if (dto.name !== undefined && dto.name !== row.name) {
        row.name = dto.name;
        fields.push('name');
      }
      if (
        dto.allowed_origins !== undefined &&
        !isDeepStrictEqual(unique(dto.allowed_origins), row.allowedOrigins)
      ) {
        row.allowedOrigins = unique(dto.allowed_origins);
        fields.push('allowed_origins');
      }
      if (
        dto.redirect_urls !== undefined &&
        !isDeepStrictEqual(unique(dto.redirect_urls), row.redirectUrls)
      ) {
        row.redirectUrls = unique(dto.redirect_urls);
        fields.push('redirect_urls');
      }
      if (dto.settings !== undefined) {
        const merged = mergeSettings(
          row.settings,
          dto.settings,
          this.sealer(row.id),
          this.migrationSealer(row.id),
        );
        row.settings = merged.settings;
        fields.push(...merged.changed.map((k) => `settings.${k}`));
      }
      if (fields.length === 0) return { project: row, changed: fields };
      if (fields.includes('redirect_urls') || fields.includes('settings.oidc'))
        assertOidcLoginUrl(row);
      const saved: Project = await this.projects.save(row, manager);
      // `data.changes` (docs/api-contract.md §13): settings that hold secrets show only that they changed.
      const changes: Record<string, unknown> = {};
      for (const f of fields) {
        if (f === 'name') changes.name = { from: before.name, to: row.name };
        else if (f === 'allowed_origins')
          changes.allowed_origins = { from: before.allowedOrigins, to: row.allowedOrigins };
        else if (f === 'redirect_urls')
          changes.redirect_urls = { from: before.redirectUrls, to: row.redirectUrls };
        else {
          const key = f.slice('settings.'.length);
          changes[f] = SECRET_SETTINGS.has(key)
            ? { changed: true }
            : {
                from: before.settings[key] ?? null,
                to: (row.settings as Record<string, unknown>)[key] ?? null,
              };
        }
      }
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: row.id,
          action: 'project.updated',
          resourceType: 'project',
          resourceId: row.id,
          data: { project: { id: row.id, name: row.name }, changed: fields, changes },
        }),
      );
      await this.invalidator.invalidate(saved, manager);
      return { project: saved, changed: fields };
    });
    if (changed.length) await this.invalidator.invalidateAfterCommit(project);
    return toProjectResponse(project);
  }

  /**
   * `DELETE /v1/admin/projects/{id}` ★ (docs/api-contract.md §13): the project with its users, keys, clients,
   * sessions and everything else of it (the schema cascades). Its sessions and signing keys are
   * marked revoked in the shared cache first, and its cache entries dropped, inside the
   * transaction, so no token or key of it works on the next request; the console project stays (409).
   * Event `project.deleted` (the audit log keeps the project's id).
   */
  async remove(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    assertRecentProof(admin, this.clock.nowMs());
    if (!isId(id)) throw projectNotFound();
    const project = await this.dataSource.transaction(async (manager) => {
      const row = await this.projects.lockInTenant(manager, admin.tenantId, id);
      if (!row) throw projectNotFound();
      if (row.isConsole)
        throw new ProblemError('conflict', {
          detail: "The console project holds the tenant's administrators and cannot be deleted.",
        });
      const kids = await manager.query<{ kid: string }[]>(
        `SELECT kid FROM signing_keys WHERE project_id = $1`,
        [row.id],
      );
      const users = await manager.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM users WHERE project_id = $1`,
        [row.id],
      );
      const sessions = await this.revocation.endWithDeletedProject(manager, row.id);
      for (const k of kids) await this.tokens.markKeyRevoked(k.kid);
      await this.invalidator.invalidate(row, manager);
      await this.projects.delete(manager, row.id);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: row.id,
          action: 'project.deleted',
          resourceType: 'project',
          resourceId: row.id,
          data: {
            project: { id: row.id, name: row.name },
            users: users[0]?.n ?? 0,
            sessions_revoked: sessions.length,
          },
        }),
      );
      return row;
    });
    await this.invalidator.invalidateAfterCommit(project);
  }
}
