import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  HttpReceiver,
  resetState,
  SmtpSink,
  TEST_DATABASE_URL,
  freePort,
  TEST_ENV,
  TxtDnsServer,
} from '@gatehouse/testing';

const ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * Vite builds the console into a folder of its own, then the build is merged into dist/console
 * without emptying it, index.html last: a stack of another test run, started from an earlier
 * build, keeps the hashed assets its page names (Vite's own emptyOutDir would delete them under it).
 */
function buildConsole(): void {
  const out = mkdtempSync(join(tmpdir(), 'gatehouse-console-build-'));
  try {
    const build = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vite/bin/vite.js'),
        'build',
        '-c',
        'apps/console/vite.config.mts',
        '--outDir',
        out,
        '--emptyOutDir',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (build.status !== 0)
      throw new Error(`console build failed:\n${build.stdout}\n${build.stderr}`);
    const dist = join(ROOT, 'dist', 'console');
    mkdirSync(dist, { recursive: true });
    for (const entry of readdirSync(out))
      if (entry !== 'index.html') cpSync(join(out, entry), join(dist, entry), { recursive: true });
    const staged = join(dist, `.index-${process.pid}.html`);
    cpSync(join(out, 'index.html'), staged);
    renameSync(staged, join(dist, 'index.html'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export interface AdminCredentials {
  email: string;
  password: string;
  projectKey: string;
}

/**
 * The whole service as a newcomer starts it: the console built by Vite, then `start.js` (what
 * `npm start` runs after building) on an empty database, creating the default tenant and writing
 * the generated admin password to its data directory. Real PostgreSQL, Redis, BullMQ, a real SMTP
 * server for mail and an HTTP receiver for webhooks and SMS.
 */
export class ConsoleStack {
  readonly smtp = new SmtpSink();
  readonly receiver = new HttpReceiver();
  /** A real DNS server on loopback the apps resolve verified domains' TXT records with (DNS_RESOLVERS). */
  readonly dns = new TxtDnsServer();
  private child: ChildProcess | null = null;
  private output = '';
  private dataDir = '';
  authUrl = '';
  controlPlaneUrl = '';
  consoleUrl = '';
  admin: AdminCredentials = { email: '', password: '', projectKey: '' };

  /** Everything the apps printed (for failure messages and the quiet-start check). */
  get log(): string {
    return this.output;
  }

  async start(): Promise<void> {
    buildConsole();
    const db = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL }).initialize();
    try {
      await resetState(db);
    } finally {
      await db.destroy();
    }
    const smtpPort = await this.smtp.start();
    await this.receiver.start();
    await this.dns.start();
    const [auth, controlPlane, worker] = [await freePort(), await freePort(), await freePort()];
    this.authUrl = `http://localhost:${auth}`;
    this.controlPlaneUrl = `http://localhost:${controlPlane}`;
    this.consoleUrl = `${this.controlPlaneUrl}/console`;
    this.dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-console-'));
    this.child = spawn(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/tools/scripts/start.js')],
      {
        cwd: ROOT,
        env: {
          // eslint-disable-next-line no-restricted-properties -- child processes inherit PATH
          PATH: process.env.PATH ?? '',
          ...TEST_ENV,
          NODE_ENV: 'development',
          // The lowest cost outside NODE_ENV=test (the config refuses less).
          BCRYPT_COST: '10',
          LOG_LEVEL: 'warn',
          AUTH_RUNTIME_PORT: String(auth),
          CONTROL_PLANE_PORT: String(controlPlane),
          WEBHOOK_WORKER_PORT: String(worker),
          METRICS_ENABLED: 'false',
          PUBLIC_AUTH_URL: this.authUrl,
          PUBLIC_CONSOLE_URL: this.consoleUrl,
          GATEHOUSE_DATA_DIR: this.dataDir,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          SMS_GATEWAY_URL: `${this.receiver.url}/sms`,
          WEBHOOK_RETRY_SCHEDULE: '1s,1s',
          DNS_RESOLVERS: this.dns.address,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start did not become ready:\n${this.output}`)),
        60_000,
      );
      const check = () => {
        if (/\[gatehouse\] ready/.test(this.output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      this.child!.stdout!.on('data', check);
      this.child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}):\n${this.output}`));
      });
    });
    const saved = JSON.parse(readFileSync(join(this.dataDir, 'admin.json'), 'utf8')) as {
      admin_email: string;
      admin_password: string;
      project_key: string;
    };
    this.admin = {
      email: saved.admin_email,
      password: saved.admin_password,
      projectKey: saved.project_key,
    };
  }

  /** An admin API call with a bearer token, as a script would make it (to check what the UI did). */
  async adminApi<T = Record<string, unknown>>(
    token: string,
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.controlPlaneUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  /** An auth-runtime call with a project key (and a bearer token when given). */
  async authApi<T = Record<string, unknown>>(
    projectKey: string,
    path: string,
    init: { method?: string; body?: unknown; token?: string } = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.authUrl}${path}`, {
      method: init.method ?? 'POST',
      headers: {
        'X-Service-Project-Key': projectKey,
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  private apiToken: string | null = null;
  /** The `service_session` cookie the auth runtime set on that API sign-in (`name=value`). */
  apiSessionCookie = '';

  /**
   * The admin's access token from one API sign-in, kept for the file (a session of its own, besides
   * the browser's; signing in again each time would meet the sign-in rate limit of 5 a minute).
   */
  async adminToken(): Promise<string> {
    if (this.apiToken) return this.apiToken;
    const res = await fetch(`${this.authUrl}/v1/auth/sign-in`, {
      method: 'POST',
      headers: {
        'X-Service-Project-Key': this.admin.projectKey,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ identifier: this.admin.email, password: this.admin.password }),
    });
    const body = (await res.json()) as { session: { access_token: string } };
    if (res.status !== 200) throw new Error(`admin sign-in: ${res.status} ${JSON.stringify(body)}`);
    this.apiSessionCookie =
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith('service_session='))
        ?.split(';')[0] ?? '';
    this.apiToken = body.session.access_token;
    return this.apiToken;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await this.smtp.stop();
    await this.receiver.stop();
    await this.dns.close();
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
