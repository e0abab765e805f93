import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import { createIdentityContext, ProvisioningService } from '@gatehouse/identity';

export interface BenchEnv {
  databaseUrl: string;
  redisUrl: string;
  encryptionKey: string;
  bcryptCost: number;
}

export interface Seeded {
  tenantId: string;
  projectId: string;
  projectKey: string;
  /**
   * Sign in, in turn, during the sign-in run (their sessions pile up there, not on the reader):
   * several people, as in real traffic, rather than one account whose concurrent attempts would
   * queue for its five lockout slots.
   */
  signInUsers: { email: string; password: string }[];
  /** Its sessions serve the `/me` and refresh runs. */
  readerUser: { email: string; password: string };
}

export const BENCH_PASSWORD = 'bench-correct-horse-battery';
const SIGN_IN_USERS = 16;

/**
 * Creates the database when missing, migrates it, and adds a fresh tenant with a (non-console)
 * project and its users, so every run starts from the same state whatever earlier runs left.
 */
export async function seed(env: BenchEnv, runId: string): Promise<Seeded> {
  await runMigrations(env.databaseUrl);
  const config = loadConfig({
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    ENCRYPTION_KEY: env.encryptionKey,
    BCRYPT_COST: String(env.bcryptCost),
    LOG_LEVEL: 'error',
  });
  const ctx = await createIdentityContext(config);
  try {
    const provisioning = ctx.get(ProvisioningService);
    const dataSource = ctx.get(DataSource);
    const tenant = await provisioning.createTenant({
      name: `bench ${runId}`,
      adminEmail: `admin-${runId}@bench.example.com`,
      adminPassword: randomBytes(18).toString('base64url'),
    });
    const signInUsers = Array.from({ length: SIGN_IN_USERS }, (_, i) => ({
      email: `sign-in-${i}-${runId}@bench.example.com`,
      password: BENCH_PASSWORD,
    }));
    const readerUser = { email: `reader-${runId}@bench.example.com`, password: BENCH_PASSWORD };
    const project = await dataSource.transaction(async (manager) => {
      const p = await provisioning.createProject(manager, tenant.tenant_id, { name: 'Bench app' });
      for (const u of signInUsers)
        await provisioning.createUserWithPassword(manager, p, { ...u, emailVerified: true });
      await provisioning.createUserWithPassword(manager, p, { ...readerUser, emailVerified: true });
      return p;
    });
    return {
      tenantId: tenant.tenant_id,
      projectId: project.id,
      projectKey: project.publishableKey,
      signInUsers,
      readerUser,
    };
  } finally {
    await ctx.close();
  }
}

/** A fresh AES-GCM key for this run only: the server seals the project's signing key with it. */
export const newEncryptionKey = () => randomBytes(32).toString('base64');
