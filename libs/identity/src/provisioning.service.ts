import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { randomToken } from '@gatehouse/crypto';
import { Project, Tenant, type ProjectSettings, type User } from '@gatehouse/entities';
import { EventRecorder } from './event-recorder';
import { PasswordHasher } from './password-hasher';
import { SigningKeysService } from './signing-keys.service';
import { ProjectsRepository } from './projects/projects.repository';
import { UsersRepository } from './users/users.repository';

export interface TenantSummary {
  tenant_id: string;
  project_id: string;
  project_key: string;
  admin_user_id: string;
}

export interface NewProject {
  name: string;
  isConsole?: boolean;
  allowedOrigins?: string[];
  redirectUrls?: string[];
  settings?: ProjectSettings;
}

export const newPublishableKey = () => randomToken(24, 'pk_');

/**
 * Creates tenants, projects (each with a publishable key and a first signing key) and users with
 * a password (written, and the console admin looked up, through UsersRepository). Shared by the
 * CLI, `npm start`'s bootstrap and the control plane.
 */
@Injectable()
export class ProvisioningService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: SigningKeysService,
    private readonly hasher: PasswordHasher,
    private readonly events: EventRecorder,
    private readonly users: UsersRepository,
    private readonly projects: ProjectsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createProject(
    manager: EntityManager,
    tenantId: string,
    input: NewProject,
  ): Promise<Project> {
    const project = await this.projects.insert(manager, {
      tenantId,
      name: input.name,
      publishableKey: newPublishableKey(),
      isConsole: input.isConsole ?? false,
      allowedOrigins: input.allowedOrigins ?? [],
      redirectUrls: input.redirectUrls ?? [],
      settings: input.settings ?? {},
    });
    await this.keys.create(manager, tenantId, project.id);
    return project;
  }

  async createUserWithPassword(
    manager: EntityManager,
    project: Project,
    input: {
      email: string;
      password: string;
      isAdmin?: boolean;
      username?: string | null;
      emailVerified?: boolean;
    },
  ): Promise<User> {
    const { hash, scheme } = await this.hasher.hash(input.password);
    const user = await this.users.create(manager, {
      tenantId: project.tenantId,
      projectId: project.id,
      email: input.email,
      username: input.username ?? null,
      isAdmin: input.isAdmin ?? false,
      emailVerified: input.emailVerified ?? false,
      status: 'active',
      metadata: {},
    });
    await this.users.setPassword(manager, user.id, hash, scheme);
    await this.events.record(manager, {
      tenantId: project.tenantId,
      projectId: project.id,
      actorType: 'system',
      actorId: null,
      action: 'user.created',
      resourceType: 'user',
      resourceId: user.id,
      data: { user: { id: user.id, email: user.email, project_id: project.id } },
    });
    return user;
  }

  /** Always creates a new tenant with its console project and admin. */
  async createTenant(input: {
    name: string;
    adminEmail: string;
    adminPassword: string;
  }): Promise<TenantSummary> {
    return this.dataSource.transaction((manager) => this.insertTenant(manager, input.name, input));
  }

  /** The tenant whose console admin is `adminEmail` if any (password unchanged), else a new one. */
  async bootstrap(input: {
    adminEmail: string;
    adminPassword: string;
    tenantName?: string;
  }): Promise<TenantSummary & { created: boolean }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse:bootstrap'))`);
      const existing = await this.users.findConsoleAdmin(manager, input.adminEmail);
      if (existing) return { ...existing, created: false };
      return {
        ...(await this.insertTenant(manager, input.tenantName ?? 'Default', input)),
        created: true,
      };
    });
  }

  /**
   * A tenant, its console project and its first admin. The console project allows the origin of
   * PUBLIC_CONSOLE_URL (so the console served by the control plane can sign in through the auth
   * runtime, and its passkeys have that host as RP ID); admins may add or change origins later.
   */
  private async insertTenant(
    manager: EntityManager,
    name: string,
    input: { adminEmail: string; adminPassword: string },
  ): Promise<TenantSummary> {
    const tenant = await manager.save(manager.create(Tenant, { name }));
    const project = await this.createProject(manager, tenant.id, {
      name: 'Console',
      isConsole: true,
      allowedOrigins: [new URL(this.config.http.publicConsoleUrl).origin],
    });
    const admin = await this.createUserWithPassword(manager, project, {
      email: input.adminEmail.trim(),
      password: input.adminPassword,
      isAdmin: true,
      emailVerified: true,
    });
    return {
      tenant_id: tenant.id,
      project_id: project.id,
      project_key: project.publishableKey,
      admin_user_id: admin.id,
    };
  }

  async countTenants(): Promise<number> {
    return this.dataSource.getRepository(Tenant).count();
  }
}
