import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfigOrExit, type AppConfig } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import { createIdentityContext, ProvisioningService } from '@gatehouse/identity';
import { describeStartupError } from '@gatehouse/platform';
import { withLocalSecrets } from './local-env';
import { shouldRunStandalone, startStandalone } from './standalone';

const ROOT = resolve(__dirname, '..', '..', '..');
const APPS = ['auth-runtime', 'control-plane', 'webhook-worker'] as const;

function say(line: string): void {
  process.stdout.write(`[gatehouse] ${line}\n`);
}

/** Creates the default tenant on first start; the generated admin password is kept in .gatehouse/admin.json. */
async function bootstrapDefaultTenant(
  config: AppConfig,
): Promise<{ projectKey: string; email: string; passwordHint: string } | null> {
  const ctx = await createIdentityContext(config);
  try {
    const provisioning = ctx.get(ProvisioningService);
    const adminFile = join(config.standalone.dataDir, 'admin.json');
    if ((await provisioning.countTenants()) > 0) {
      if (existsSync(adminFile)) {
        const saved = JSON.parse(readFileSync(adminFile, 'utf8')) as {
          project_key: string;
          admin_email: string;
          admin_password?: string;
        };
        // The file holds a password only when it was generated; otherwise it came from BOOTSTRAP_ADMIN_PASSWORD.
        const passwordHint = saved.admin_password
          ? `see ${adminFile}`
          : 'BOOTSTRAP_ADMIN_PASSWORD at first start';
        return { projectKey: saved.project_key, email: saved.admin_email, passwordHint };
      }
      say(
        'tenants already exist; `npm run cli -- bootstrap --admin-email E --admin-password P --json` prints one.',
      );
      return null;
    }
    const email = config.auth.bootstrapAdminEmail ?? 'admin@gatehouse.local';
    const generated = config.auth.bootstrapAdminPassword === null;
    const password = config.auth.bootstrapAdminPassword ?? randomBytes(18).toString('base64url');
    const t = await provisioning.bootstrap({
      adminEmail: email,
      adminPassword: password,
      tenantName: 'Default',
    });
    mkdirSync(config.standalone.dataDir, { recursive: true });
    writeFileSync(
      adminFile,
      JSON.stringify(
        { ...t, admin_email: email, ...(generated ? { admin_password: password } : {}) },
        null,
        2,
      ) + '\n',
      { mode: 0o600 },
    );
    return {
      projectKey: t.project_key,
      email,
      passwordHint: generated ? `generated, written to ${adminFile}` : 'BOOTSTRAP_ADMIN_PASSWORD',
    };
  } finally {
    await ctx.close();
  }
}

async function waitReady(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url} exited during start-up`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready`);
}

/** The line each app prints once it listens (for tests that spawn it); the welcome names these ports. */
const LISTENING = /^gatehouse: (listening|metrics) on port \d+$/;

function prefixed(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream): void {
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (!LISTENING.test(line)) out.write(`[${name}] ${line}\n`);
  });
}

/** The URLs, then how to sign in: ends with the console and its admin, then the ready line. */
function printWelcome(
  config: AppConfig,
  bootstrap: { projectKey: string; email: string; passwordHint: string } | null,
): void {
  const host = 'localhost';
  const ports = config.http.ports;
  say(`auth runtime   http://${host}:${ports.authRuntime}  (API docs: /docs)`);
  say(`control plane  http://${host}:${ports.controlPlane}  (API docs: /docs)`);
  say(`webhook worker http://${host}:${ports.webhookWorker}/health/ready`);
  if (bootstrap) {
    say(`console project key: ${bootstrap.projectKey}`);
    say(
      `sign in: curl -c jar -H 'X-Service-Project-Key: ${bootstrap.projectKey}' -H 'Content-Type: application/json' ` +
        `-d '{"identifier":"${bootstrap.email}","password":"…"}' http://${host}:${ports.authRuntime}/v1/auth/sign-in`,
    );
  }
  say(`console        ${config.http.publicConsoleUrl}`);
  if (bootstrap) say(`admin: ${bootstrap.email} (password: ${bootstrap.passwordHint})`);
  say('ready. Press Ctrl-C to stop.');
}

async function main(): Promise<void> {
  // A developer's own machine unless said otherwise: loopback URLs allowed, logged mail whole (AppConfig.localDevelopment).
  // eslint-disable-next-line no-restricted-properties -- the orchestrator passes the environment on to the apps
  const env = withLocalSecrets({ ...process.env, NODE_ENV: process.env.NODE_ENV || 'development' });
  if (await shouldRunStandalone(env)) {
    const dataDir = env.GATEHOUSE_DATA_DIR ?? '.gatehouse';
    say(
      `running standalone: embedded PostgreSQL (PGlite, data in ${dataDir}/pgdata) and in-process cache and queues, all in one process. ` +
        'For production run PostgreSQL and Redis and set DATABASE_URL and REDIS_URL.',
    );
    let bootstrap: Awaited<ReturnType<typeof bootstrapDefaultTenant>> = null;
    await startStandalone(env, async (config) => {
      bootstrap = await bootstrapDefaultTenant(config);
    });
    printWelcome(loadConfigOrExit({ ...env, GATEHOUSE_STANDALONE: '1' }), bootstrap);
    return;
  }
  const config = loadConfigOrExit(env);
  try {
    await runMigrations(config.database.url);
  } catch (err) {
    say(describeStartupError(err));
    process.exit(1);
  }
  const bootstrap = await bootstrapDefaultTenant(config);

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const child of children.values()) if (child.exitCode === null) child.kill('SIGKILL');
    }, config.http.shutdownGraceMs + 2000);
    force.unref();
    const exits = [...children.values()].map((c) =>
      c.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r())),
    );
    void Promise.all(exits).then(() => process.exit(code));
  };
  // Ctrl-C reaches the whole process group; SIGTERM (`kill`, a process manager, npm passing it on) only this process.
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  // However this process ends (a crash included), no app outlives it holding its port.
  process.on('exit', () => {
    for (const child of children.values())
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });

  for (const app of APPS) {
    const child = spawn(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/apps', app, 'src/main.js')],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    prefixed(app, child.stdout, process.stdout);
    prefixed(app, child.stderr, process.stderr);
    child.on('exit', (code) => {
      if (!stopping) {
        say(`${app} exited (${code ?? 'signal'}); stopping the others.`);
        stop(1);
      }
    });
    children.set(app, child);
  }

  const ports = config.http.ports;
  try {
    await Promise.all([
      waitReady(
        `http://localhost:${ports.authRuntime}/health/ready`,
        children.get('auth-runtime')!,
      ),
      waitReady(
        `http://localhost:${ports.controlPlane}/health/ready`,
        children.get('control-plane')!,
      ),
      waitReady(
        `http://localhost:${ports.webhookWorker}/health/ready`,
        children.get('webhook-worker')!,
      ),
    ]);
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    stop(1);
    return;
  }
  printWelcome(config, bootstrap);
}

void main().catch((err: unknown) => {
  say(describeStartupError(err));
  process.exit(1);
});
