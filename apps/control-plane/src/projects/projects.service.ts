import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { Project } from '@gatehouse/entities';
import { EventRecorder, ProjectsRepository, ProvisioningService, sealMigrationSecret, sealOAuthSecret, type RequestMeta } from '@gatehouse/identity';
import { checkWebhookUrl } from '@gatehouse/webhooks';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '../common/pagination';
import type { CreateProjectDto } from './dto/create-project.dto';
import type { ProjectSettingsDto } from './dto/project-settings.dto';
import type { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectCacheInvalidator } from './project-cache-invalidator';
import { mergeSettings, unique, type MigrationSealer, type Sealer } from './project-settings';
import { toProjectResponse } from './project.response';
import { isRegisteredRedirectUrl, providerAddressErrors } from './url-rules';

const notFound = () => new ProblemError('not-found', { detail: 'No such project.' });

/**
 * `settings.oidc.login_url` must be one of the project's redirect URLs (CONTRACT §11), judged on
 * the project as it would be stored (the same PATCH may change either).
 */
function assertOidcLoginUrl(project: Pick<Project, 'redirectUrls' | 'settings'>): void {
  const loginUrl = project.settings.oidc?.login_url;
  if (typeof loginUrl === 'string' && !isRegisteredRedirectUrl(project.redirectUrls, loginUrl)) {
    throw ProblemError.validation({ 'settings.oidc.login_url': ["must be one of the project's redirect_urls"] });
  }
}

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
  ) {}

  private sealer(projectId: string): Sealer {
    return (provider, field, value) => sealOAuthSecret(this.config, projectId, provider, field, value);
  }

  private migrationSealer(projectId: string): MigrationSealer {
    return (secret) => sealMigrationSecret(this.config, projectId, secret);
  }

  /** The lazy-migration URL is called by the runtime as a webhook is: the same address rules (SSRF). */
  private async assertMigrationUrl(settings: ProjectSettingsDto | undefined): Promise<void> {
    const url = settings?.password_migration?.url;
    if (url === undefined) return;
    const check = await checkWebhookUrl(url, { mode: this.config.webhooks.allowPrivateUrls });
    if (!check.ok) throw ProblemError.validation({ 'settings.password_migration.url': [check.message] });
  }

  /** Provider URLs the runtime would call at an address OAUTH_ALLOW_PRIVATE_URLS refuses: 400 on each field. */
  private assertProviderUrls(settings: ProjectSettingsDto | undefined): void {
    const errors = providerAddressErrors(settings?.oauth_providers, this.config.oauth.allowPrivateUrls);
    if (Object.keys(errors).length > 0) throw ProblemError.validation(errors);
  }

  async list(tenantId: string, q: string | undefined, page: Page) {
    const [rows, total] = await this.projects.list(tenantId, q, page);
    return paginated('projects', rows.map(toProjectResponse), page, total);
  }

  async get(tenantId: string, id: string) {
    const project = isId(id) ? await this.projects.findInTenant(tenantId, id) : null;
    if (!project) throw notFound();
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
        created.settings = mergeSettings({}, dto.settings, this.sealer(created.id), this.migrationSealer(created.id)).settings;
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
    if (!isId(id)) throw notFound();
    this.assertProviderUrls(dto.settings);
    await this.assertMigrationUrl(dto.settings);
    const { project, changed } = await this.dataSource.transaction(async (manager) => {
      const row = await this.projects.lockInTenant(manager, admin.tenantId, id);
      if (!row) throw notFound();
      const fields: string[] = [];
      if (dto.name !== undefined) {
        row.name = dto.name;
        fields.push('name');
      }
      if (dto.allowed_origins !== undefined) {
        row.allowedOrigins = unique(dto.allowed_origins);
        fields.push('allowed_origins');
      }
      if (dto.redirect_urls !== undefined) {
        row.redirectUrls = unique(dto.redirect_urls);
        fields.push('redirect_urls');
      }
      if (dto.settings !== undefined) {
        const merged = mergeSettings(row.settings, dto.settings, this.sealer(row.id), this.migrationSealer(row.id));
        row.settings = merged.settings;
        fields.push(...merged.changed.map((k) => `settings.${k}`));
      }
      if (fields.length === 0) return { project: row, changed: fields };
      if (fields.includes('redirect_urls') || fields.includes('settings.oidc')) assertOidcLoginUrl(row);
      const saved: Project = await this.projects.save(row, manager);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: row.id,
          action: 'project.updated',
          resourceType: 'project',
          resourceId: row.id,
          data: { project: { id: row.id, name: row.name }, changed: fields },
        }),
      );
      await this.invalidator.invalidate(saved, manager);
      return { project: saved, changed: fields };
    });
    if (changed.length) await this.invalidator.invalidateAfterCommit(project);
    return toProjectResponse(project);
  }
}
