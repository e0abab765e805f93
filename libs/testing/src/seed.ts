import type { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { Session, User, type Project } from '@gatehouse/entities';
import {
  AccessTokensService,
  EventRecorder,
  PasswordHasher,
  ProjectsRepository,
  ProvisioningService,
  SigningKeysService,
  UsersRepository,
} from '@gatehouse/identity';

export const APP_ORIGIN = 'https://app.example.com';
export const APP_REDIRECT = 'https://app.example.com/callback';

export interface SeededTenant {
  tenantId: string;
  consoleProjectId: string;
  consoleKey: string;
  adminUserId: string;
  adminEmail: string;
  adminPassword: string;
  /** A regular application project with an allowed origin and a redirect URL. */
  project: Project;
  projectKey: string;
}

let counter = 0;

/**
 * The app's provisioning service; an app without identity services (the worker loads only the
 * event recorder) gets one built from its own database, clock and config, as IdentityModule would.
 */
async function provisioningOf(app: INestApplication): Promise<ProvisioningService> {
  try {
    return app.get(ProvisioningService);
  } catch {
    const refs = app.get(ModuleRef);
    const [keys, hasher] = await Promise.all([
      refs.create(SigningKeysService),
      refs.create(PasswordHasher),
    ]);
    const db = app.get(DataSource);
    return new ProvisioningService(
      db,
      keys,
      hasher,
      app.get(EventRecorder),
      new UsersRepository(db),
      new ProjectsRepository(db),
      app.get<AppConfig>(APP_CONFIG),
    );
  }
}

/** A tenant with its console admin and one application project, created through the real services. */
export async function seedTenant(app: INestApplication, name = 'Acme'): Promise<SeededTenant> {
  counter += 1;
  const provisioning = await provisioningOf(app);
  const dataSource = app.get(DataSource);
  const adminEmail = `admin${counter}-${Date.now()}@${name.toLowerCase()}.test`;
  const adminPassword = 'correct horse battery staple';
  const t = await provisioning.createTenant({ name, adminEmail, adminPassword });
  const project = await dataSource.transaction((m) =>
    provisioning.createProject(m, t.tenant_id, {
      name: `${name} App`,
      allowedOrigins: [APP_ORIGIN],
      redirectUrls: [APP_REDIRECT],
      settings: {
        default_redirect_url: APP_REDIRECT,
        rp_id: 'app.example.com',
        rp_name: `${name} App`,
      },
    }),
  );
  return {
    tenantId: t.tenant_id,
    consoleProjectId: t.project_id,
    consoleKey: t.project_key,
    adminUserId: t.admin_user_id,
    adminEmail,
    adminPassword,
    project,
    projectKey: project.publishableKey,
  };
}

/** Creates a session for an existing user directly and returns its access token. */
export async function mintAccessToken(
  app: INestApplication,
  userId: string,
): Promise<{ token: string; sessionId: string }> {
  const dataSource = app.get(DataSource);
  const user = await dataSource.getRepository(User).findOneByOrFail({ id: userId });
  const session = await dataSource.getRepository(Session).save(
    dataSource.getRepository(Session).create({
      tenantId: user.tenantId,
      projectId: user.projectId,
      userId: user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    }),
  );
  const { token } = await app.get(AccessTokensService).issue({
    tenantId: user.tenantId,
    projectId: user.projectId,
    userId: user.id,
    sessionId: session.id,
    isAdmin: user.isAdmin,
  });
  return { token, sessionId: session.id };
}

/** A user with a password in the given project, created through the real provisioning service. */
export async function createUser(
  app: INestApplication,
  project: Project,
  email: string,
  password = 'a-long-enough-password',
): Promise<User> {
  const provisioning = await provisioningOf(app);
  return app
    .get(DataSource)
    .transaction((m) => provisioning.createUserWithPassword(m, project, { email, password }));
}
