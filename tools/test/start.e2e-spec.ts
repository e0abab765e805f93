import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY, TEST_REDIS_URL } from '@gatehouse/testing';
import { alive, answers, descendants, freePorts, ROOT, spawnCaptured, until } from './processes';

/** Nest's start-up chatter, which `npm start` keeps for LOG_LEVEL=debug. */
const NEST_CHATTER =
  /InstanceLoader|RoutesResolver|RouterExplorer|NestFactory|NestApplication successfully started/;

/**
 * `npm start` as a user runs it (the script builds, then starts), at the default log level, on ports
 * of its own; then SIGTERM to the npm process, as a process manager or `kill` sends it.
 */
interface Started {
  stdout: string;
  ports: number[];
  controlPlanePort: number;
  dataDir: string;
  consolePage: { status: number; csp: string; html: string };
}

/** One request line at the default level (README): `HH:MM:SS LOG [app] METHOD route status N ms`, behind the app's name with three processes. */
const CONSOLE_REQUEST_LINE =
  /^(\[control-plane\] )?\d{2}:\d{2}:\d{2} LOG \[control-plane\] GET \/console\S* 200 \d+ ms$/m;

async function startThenTerminate(mode: Record<string, string>): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
  const ports = await freePorts(6);
  const [auth, control, worker] = ports;
  let processes: number[] = [];
  try {
    const npm = await spawnCaptured(
      'npm',
      ['start'],
      {
        // eslint-disable-next-line no-restricted-properties -- npm needs PATH and HOME
        PATH: process.env.PATH ?? '',
        // eslint-disable-next-line no-restricted-properties -- npm needs PATH and HOME
        HOME: process.env.HOME ?? tmpdir(),
        GATEHOUSE_DATA_DIR: dataDir,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        HOST: '127.0.0.1',
        AUTH_RUNTIME_PORT: String(auth),
        CONTROL_PLANE_PORT: String(control),
        WEBHOOK_WORKER_PORT: String(worker),
        AUTH_RUNTIME_METRICS_PORT: String(ports[3]),
        CONTROL_PLANE_METRICS_PORT: String(ports[4]),
        WEBHOOK_WORKER_METRICS_PORT: String(ports[5]),
        ...mode,
      },
      // The build (tsc, then both Vite builds) comes first: minutes on a busy 2-core machine.
      '[gatehouse] ready.',
      300_000,
    );
    processes = [npm.child.pid!, ...descendants(npm.child.pid!)];
    expect(processes.length).toBeGreaterThan(1);
    for (const port of ports) expect(await answers(port)).toBe(true);
    // npm start built the console, and the control plane serves it (in both modes).
    const page = await fetch(`http://127.0.0.1:${control}/console/`);
    const consolePage = {
      status: page.status,
      csp: page.headers.get('content-security-policy') ?? '',
      html: await page.text(),
    };
    await until('the request line', () => CONSOLE_REQUEST_LINE.test(npm.stdout()), 5_000);
    const stdout = npm.stdout();

    npm.child.kill('SIGTERM');
    await until(
      'npm to exit',
      () => npm.child.exitCode !== null || npm.child.signalCode !== null,
      15_000,
    );
    await until(
      'every process npm started to end',
      () => processes.every((pid) => !alive(pid)),
      5_000,
    );
    for (const port of ports) expect(await answers(port)).toBe(false);
    return {
      stdout,
      ports: [auth, control, worker],
      controlPlanePort: control,
      dataDir,
      consolePage,
    };
  } finally {
    // What a failed run left behind would hold the ports.
    for (const pid of processes) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The welcome as the README shows it (the code block after "and prints:"), each line a pattern of
 * the whole line: the default ports replaced by this run's, `pk_…` by any project key, the data
 * directory by this run's.
 */
function readmeWelcome({ ports: [auth, control, worker], dataDir }: Started): RegExp[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /and prints:\n\n```\n([\s\S]*?)\n```/.exec(readme);
  expect(block).not.toBeNull();
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return block![1].split('\n').map((line) => {
    const ours = line
      .replaceAll('localhost:4000', `localhost:${auth}`)
      .replaceAll('localhost:4001', `localhost:${control}`)
      .replaceAll('localhost:4002', `localhost:${worker}`)
      .replaceAll('.gatehouse/admin.json', `${dataDir}/admin.json`);
    return new RegExp(`^${escape(ours).replaceAll('pk_…', 'pk_[\\w-]+')}$`);
  });
}

/** The welcome lines: ours only, ending with the console, its admin, then the ready line. */
function expectWelcome({ stdout, controlPlanePort, consolePage }: Started): void {
  expect(consolePage.status).toBe(200);
  expect(consolePage.csp).toContain("frame-ancestors 'none'");
  expect(consolePage.html).toMatch(
    /<script type="module" crossorigin src="\/console\/assets\/index-[^"]+\.js"/,
  );
  expect(stdout).toMatch(/console: initial JavaScript [\d.]+ KB gzipped \(budget 300 KB\)/);
  expect(stdout).not.toMatch(NEST_CHATTER);
  const ours = stdout.split('\n').filter((line) => line.startsWith('[gatehouse] '));
  expect(ours.find((l) => l.includes('auth runtime   http://localhost:'))).toBeDefined();
  expect(ours.find((l) => l.includes('control plane  http://localhost:'))).toBeDefined();
  expect(ours.slice(-3)).toEqual([
    expect.stringMatching(
      new RegExp(`^\\[gatehouse\\] console        http://localhost:${controlPlanePort}/console$`),
    ),
    expect.stringMatching(/^\[gatehouse\] admin: /),
    expect.stringMatching(/^\[gatehouse\] ready\. Press Ctrl-C/),
  ]);
  // Nothing else: npm's echo of the script, the build's bundle line, ours, and one short line a request.
  const others = stdout
    .split('\n')
    .filter(
      (line) =>
        line !== '' &&
        !line.startsWith('> ') &&
        !line.startsWith('[gatehouse] ') &&
        !line.startsWith('console: initial JavaScript') &&
        !CONSOLE_REQUEST_LINE.test(line),
    );
  expect(others).toEqual([]);
  expect(stdout).toMatch(CONSOLE_REQUEST_LINE);
}

describe('npm start: quiet at the default log level, and SIGTERM stops everything it started', () => {
  it("standalone mode (all apps in one process): the running-standalone line, then exactly the README's welcome", async () => {
    // No BOOTSTRAP_ADMIN_*: the admin and the generated password the README shows.
    const started = await startThenTerminate({ GATEHOUSE_STANDALONE: '1' });
    expectWelcome(started);
    const ours = started.stdout.split('\n').filter((line) => line.startsWith('[gatehouse] '));
    expect(ours[0]).toMatch(/^\[gatehouse\] running standalone: /);
    const readme = readmeWelcome(started);
    expect(ours.slice(1)).toEqual(readme.map((line) => expect.stringMatching(line)));
  }, 360_000);

  it('with PostgreSQL and Redis (three app processes)', async () => {
    // A database of its own: the default tenant is created there on first start, as on a fresh install.
    const admin = new Client({
      connectionString: TEST_DATABASE_URL.replace(/\/[^/]+$/, '/postgres'),
    });
    const name = `${new URL(TEST_DATABASE_URL).pathname.slice(1)}_start`;
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
      const started = await startThenTerminate({
        DATABASE_URL: TEST_DATABASE_URL.replace(/\/[^/]+$/, `/${name}`),
        REDIS_URL: TEST_REDIS_URL,
        BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
        BOOTSTRAP_ADMIN_PASSWORD: 'owner password 123',
      });
      expect(started.stdout).not.toContain('running standalone');
      // The apps' "listening on port" lines (for tests that spawn them) stay out: the welcome names the ports.
      expect(started.stdout).not.toContain('listening on port');
      expectWelcome(started);
      expect(started.stdout).toContain(
        '[gatehouse] admin: owner@example.com (password: BOOTSTRAP_ADMIN_PASSWORD)',
      );
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 360_000);
});
