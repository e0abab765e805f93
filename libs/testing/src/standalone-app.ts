import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { runMigrations } from '@gatehouse/entities';
import { servedOpenApiDocument } from '@gatehouse/http';
import { openApiDisagreements, recordAnswers, type RecordedAnswer } from './openapi-conformance';
import { truncate } from './reset';
import { testConfig, type AppFactory, type TestApp } from './test-app';
import { TestClock } from './test-clock';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * A fresh in-memory PGlite database behind the standalone mode's session server
 * (EmbeddedDatabaseServer), in a child Node process: PGlite loads its file system with a dynamic
 * import that Jest's module sandbox refuses. Runs the build the e2e global setup made in dist/.
 */
async function startEmbeddedDatabase(): Promise<{ url: string; child: ChildProcess }> {
  const server = join(ROOT, 'dist', 'libs', 'entities', 'src', 'embedded-database-server.js');
  const script = `
    const { EmbeddedDatabaseServer, openPglite } = require(${JSON.stringify(server)});
    (async () => {
      const db = await openPglite('memory://');
      process.stdout.write('PORT ' + (await new EmbeddedDatabaseServer(db).start()) + '\\n');
    })();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`the embedded database exited (${code}): ${out}`)),
    );
  });
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, child };
}

/**
 * Boots a real app in standalone mode (GATEHOUSE_STANDALONE: the embedded database through its
 * session server, the in-process cache and job broker), migrated, as `startTestApp` boots one on
 * PostgreSQL and Redis. `reset` empties the tables; the in-process cache lives as long as the file's
 * module registry.
 */
export async function startStandaloneTestApp(
  factory: AppFactory,
  overrides: Record<string, string> = {},
): Promise<TestApp> {
  const database = await startEmbeddedDatabase();
  try {
    await runMigrations(database.url);
    const config = testConfig({
      GATEHOUSE_STANDALONE: '1',
      DATABASE_URL: database.url,
      ...overrides,
    });
    const clock = new TestClock();
    const app = await factory(config, { clock, logger: false });
    const server = app.getHttpServer();
    const dataSource = app.get(DataSource);
    const answers: RecordedAnswer[] = [];
    recordAnswers(server, answers);
    return {
      app,
      config,
      clock,
      dataSource,
      http: () => request(server),
      reset: async () => {
        clock.reset();
        const tables: { tablename: string }[] = await dataSource.query(
          `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
        );
        if (tables.length)
          await truncate(
            dataSource,
            `TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`,
          );
      },
      close: async () => {
        try {
          const disagreements = openApiDisagreements(servedOpenApiDocument(app), answers);
          await app.close();
          if (disagreements.length)
            throw new Error(
              `answers that disagree with the served OpenAPI document:\n  ${disagreements.join('\n  ')}`,
            );
        } finally {
          database.child.kill('SIGKILL');
        }
      },
    };
  } catch (err) {
    database.child.kill('SIGKILL');
    throw err;
  }
}
