import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY } from '@gatehouse/testing';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/** `npm run cli -- …` runs this compiled entry point (after `npm run build`). */
async function cli(...args: string[]): Promise<{ stdout: string; code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/tools/scripts/cli.js'), ...args],
      {
        cwd: ROOT,
        env: {
          // eslint-disable-next-line no-restricted-properties -- the child needs PATH
          PATH: process.env.PATH ?? '',
          DATABASE_URL: TEST_DATABASE_URL,
          ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          LOG_LEVEL: 'error',
        },
      },
    );
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('CLI: bootstrap and tenant create', () => {
  const email = `cli-${Date.now()}@example.com`;

  it('bootstraps a tenant once and returns the same one again, password unchanged', async () => {
    const first = await cli(
      'bootstrap',
      '--admin-email',
      email,
      '--admin-password',
      'first password 1',
      '--json',
    );
    expect(first.code).toBe(0);
    const a = JSON.parse(first.stdout) as Record<string, string>;
    expect(Object.keys(a).sort()).toEqual([
      'admin_user_id',
      'project_id',
      'project_key',
      'tenant_id',
    ]);
    expect(a.project_key).toMatch(/^pk_/);
    const hashOf = async () => {
      const db = new Client({ connectionString: TEST_DATABASE_URL });
      await db.connect();
      try {
        return (
          await db.query<{ password_hash: string }>(
            'SELECT password_hash FROM password_credentials WHERE user_id = $1',
            [a.admin_user_id],
          )
        ).rows[0]?.password_hash;
      } finally {
        await db.end();
      }
    };
    const before = await hashOf();
    expect(before).toMatch(/^\$2b\$10\$/);
    const again = await cli(
      'bootstrap',
      '--admin-email',
      email.toUpperCase(),
      '--admin-password',
      'another password 2',
      '--json',
    );
    expect(JSON.parse(again.stdout)).toEqual(a);
    expect(await hashOf()).toBe(before);
  });

  it('always creates a new tenant with tenant create', async () => {
    const one = JSON.parse(
      (
        await cli(
          'tenant',
          'create',
          '--name',
          'One',
          '--admin-email',
          email,
          '--admin-password',
          'first password 1',
          '--json',
        )
      ).stdout,
    ) as Record<string, string>;
    const two = JSON.parse(
      (
        await cli(
          'tenant',
          'create',
          '--name',
          'Two',
          '--admin-email',
          email,
          '--admin-password',
          'first password 1',
          '--json',
        )
      ).stdout,
    ) as Record<string, string>;
    expect(one.tenant_id).not.toBe(two.tenant_id);
    expect(one.project_key).not.toBe(two.project_key);
  });

  it('refuses bad arguments with a usage line and exit code 2', async () => {
    for (const args of [
      ['frobnicate'],
      ['bootstrap', '--admin-email', 'nope', '--admin-password', 'long enough 1'],
      ['bootstrap', '--admin-email', email, '--admin-password', 'short'],
      ['tenant', 'create', '--admin-email', email, '--admin-password', 'long enough 1'],
    ]) {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Usage:');
    }
  });
});
