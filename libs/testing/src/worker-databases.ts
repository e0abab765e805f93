import { Client } from 'pg';
import { workerDatabaseUrl } from './test-env';

const nameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Gives Jest workers 1…`workers` a fresh copy of the migrated template database each
 * (`CREATE DATABASE … TEMPLATE`, a file copy: far quicker than migrating every copy). What an
 * earlier run left in a worker's database, and its connections, are dropped first.
 */
export async function cloneWorkerDatabases(templateUrl: string, workers: number): Promise<void> {
  const admin = new URL(templateUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const template = nameOf(templateUrl);
    for (let worker = 1; worker <= workers; worker++) {
      const name = quote(nameOf(workerDatabaseUrl(templateUrl, worker)));
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await copy(client, template, name);
    }
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL copies a template only while no one else is connected to it (55006 object_in_use): a
 * process a failed run left behind may still be, so it is disconnected and the copy tried again.
 */
async function copy(client: Client, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE ${name} TEMPLATE ${quote(template)}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 5) throw err;
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [template],
      );
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
