import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { randomToken } from '@gatehouse/crypto';
import { PasswordCredential, Project, Tenant, User, type ProjectSettings } from '@gatehouse/entities';
import { EventRecorder } from './event-recorder';
import { PasswordHasher } from './password-hasher';
import { SigningKeysService } from './signing-keys.service';

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
 * a password. Shared by the CLI, `npm start`'s bootstrap and the control plane.
 */
@Injectable()
export class ProvisioningService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: SigningKeysService,
    private readonly hasher: PasswordHasher,
    private readonly events: EventRecorder,
  ) {}

  async createProject(manager: EntityManager, tenantId: string, input: NewProject): Promise<Project> {
    const project = await manager.save(
      manager.create(Project, {
        tenantId,
        name: input.name,
        publishableKey: newPublishableKey(),
        isConsole: input.isConsole ?? false,
        allowedOrigins: input.allowedOrigins ?? [],
        redirectUrls: input.redirectUrls ?? [],
        settings: input.settings ?? {},
      }),
    );
    await this.keys.create(manager, tenantId, project.id);
    return project;
  }

  async createUserWithPassword(
    manager: EntityManager,
    project: Project,
    input: { email: string; password: string; isAdmin?: boolean; username?: string | null; emailVerified?: boolean },
  ): Promise<User> {
    const { hash, scheme } = await this.hasher.hash(input.password);
    const user = await manager.save(
      manager.create(User, {
        tenantId: project.tenantId,
        projectId: project.id,
        email: input.email,
        username: input.username ?? null,
        isAdmin: input.isAdmin ?? false,
        emailVerified: input.emailVerified ?? false,
        status: 'active',
        metadata: {},
      }),
    );
    await manager.insert(PasswordCredential, { userId: user.id, passwordHash: hash, scheme });
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
  async createTenant(input: { name: string; adminEmail: string; adminPassword: string }): Promise<TenantSummary> {
    return this.dataSource.transaction(async (manager) => {
      const tenant = await manager.save(manager.create(Tenant, { name: input.name }));
      const project = await this.createProject(manager, tenant.id, { name: 'Console', isConsole: true });
      const admin = await this.createUserWithPassword(manager, project, {
        email: input.adminEmail.trim(),
        password: input.adminPassword,
        isAdmin: true,
        emailVerified: true,
      });
      return { tenant_id: tenant.id, project_id: project.id, project_key: project.publishableKey, admin_user_id: admin.id };
    });
  }

  /** The tenant whose console admin is `adminEmail` if any (password unchanged), else a new one. */
  async bootstrap(input: { adminEmail: string; adminPassword: string; tenantName?: string }): Promise<TenantSummary & { created: boolean }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse:bootstrap'))`);
      const existing = await this.findConsoleAdmin(manager, input.adminEmail);
      if (existing) return { ...existing, created: false };
      const tenant = await manager.save(manager.create(Tenant, { name: input.tenantName ?? 'Default' }));
      const project = await this.createProject(manager, tenant.id, { name: 'Console', isConsole: true });
      const admin = await this.createUserWithPassword(manager, project, {
        email: input.adminEmail.trim(),
        password: input.adminPassword,
        isAdmin: true,
        emailVerified: true,
      });
      return { tenant_id: tenant.id, project_id: project.id, project_key: project.publishableKey, admin_user_id: admin.id, created: true };
    });
  }

  async countTenants(): Promise<number> {
    return this.dataSource.getRepository(Tenant).count();
  }

  private async findConsoleAdmin(manager: EntityManager, email: string): Promise<TenantSummary | null> {
    const rows: { tenant_id: string; project_id: string; project_key: string; admin_user_id: string }[] = await manager.query(
      `SELECT p.tenant_id, p.id AS project_id, p.publishable_key AS project_key, u.id AS admin_user_id
         FROM users u JOIN projects p ON p.id = u.project_id
        WHERE p.is_console AND u.is_admin AND lower(u.email) = lower($1)
        ORDER BY u.created_at LIMIT 1`,
      [email.trim()],
    );
    return rows[0] ?? null;
  }
}
