import 'reflect-metadata';
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigOrExit, type AppConfig } from '@gatehouse/config';
import { firebaseParametersOf } from '@gatehouse/crypto';
import { runMigrations } from '@gatehouse/entities';
import { createIdentityContext, ProvisioningService } from '@gatehouse/identity';
import { runMain } from '@gatehouse/platform';
import {
  importUsersFile,
  SOURCE_FORMATS,
  type ImportReport,
  type SourceFormat,
} from '@gatehouse/user-transfer';
import { withLocalSecrets } from './local-env';
import { reachEmbeddedDatabase, shouldRunStandalone, standaloneDataDir } from './standalone';

const USAGE = `Usage:
  npm run cli -- bootstrap --admin-email E --admin-password P [--tenant-name N] [--json]
  npm run cli -- tenant create --name N --admin-email E --admin-password P [--json]
  npm run cli -- users import --project ID --file F [--format gatehouse|auth0|firebase|supabase|clerk|cognito|keycloak]
      [--on-conflict skip|update|conflict] [--allow-weak-hashes] [--emit-events] [--login-phones]
      [--signer-key K --salt-separator S --rounds R --mem-cost M] [--json]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

runMain('cli', async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'tenant-name': { type: 'string' },
      name: { type: 'string' },
      project: { type: 'string' },
      file: { type: 'string' },
      format: { type: 'string', default: 'gatehouse' },
      'on-conflict': { type: 'string', default: 'skip' },
      'allow-weak-hashes': { type: 'boolean', default: false },
      'login-phones': { type: 'boolean', default: false },
      'emit-events': { type: 'boolean', default: false },
      'signer-key': { type: 'string' },
      'salt-separator': { type: 'string' },
      rounds: { type: 'string' },
      'mem-cost': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const command = positionals.join(' ');
  if (command === 'users import') return usersImport(values);
  if (command !== 'bootstrap' && command !== 'tenant create') fail(`Unknown command "${command}".`);
  const email = values['admin-email'];
  const password = values['admin-password'];
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) fail('--admin-email must be an email address.');
  if (!password || password.length < 8) fail('--admin-password must have at least 8 characters.');
  if (command === 'tenant create' && !values.name) fail('--name is required.');

  const args = {
    email,
    password,
    name: values.name,
    tenantName: values['tenant-name'],
    json: values.json,
  };
  await withDatabase((config) => provision(command, args, config));
});

/**
 * Runs `work` with the config of the database the service uses. Where `npm start` runs standalone,
 * that is its embedded database: through the running service, or in the data directory itself
 * while the service is stopped.
 */
async function withDatabase(work: (config: AppConfig) => Promise<void>): Promise<void> {
  // The CLI sends no mail or SMS: their transports are not asked for (nor refused) here.
  // eslint-disable-next-line no-restricted-properties -- CLI entry point
  const env = { ...withLocalSecrets(process.env), MAIL_TRANSPORT: 'log', SMS_TRANSPORT: 'log' };
  const standalone = await shouldRunStandalone(env);
  const config = loadConfigOrExit(standalone ? { ...env, GATEHOUSE_STANDALONE: '1' } : env);
  if (!standalone) return work(config);
  const embedded = await reachEmbeddedDatabase(standaloneDataDir(env));
  try {
    await work(loadConfigOrExit({ ...env, GATEHOUSE_STANDALONE: '1', DATABASE_URL: embedded.url }));
  } finally {
    await embedded.close();
  }
}

async function provision(
  command: string,
  args: { email: string; password: string; name?: string; tenantName?: string; json: boolean },
  config: AppConfig,
): Promise<void> {
  await runMigrations(config.database.url);
  const ctx = await createIdentityContext(config);
  try {
    const provisioning = ctx.get(ProvisioningService);
    const summary =
      command === 'bootstrap'
        ? await provisioning.bootstrap({
            adminEmail: args.email,
            adminPassword: args.password,
            tenantName: args.tenantName,
          })
        : await provisioning.createTenant({
            name: args.name!,
            adminEmail: args.email,
            adminPassword: args.password,
          });
    const out = {
      tenant_id: summary.tenant_id,
      project_id: summary.project_id,
      project_key: summary.project_key,
      admin_user_id: summary.admin_user_id,
    };
    process.stdout.write(
      args.json
        ? `${JSON.stringify(out)}\n`
        : Object.entries(out)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n') + '\n',
    );
  } finally {
    await ctx.close();
  }
}

/** How many refused lines the readable summary shows (`--json` has the report's whole list). */
const SHOWN_ERRORS = 20;

/**
 * `users import` (docs/api-contract.md §12, docs/migration.md): the file converted from its format and
 * imported in-process by `@gatehouse/user-transfer`, the import the control plane serves, as the
 * system; prints the report (`--json`: exactly the API's `{counts, errors}`). Exit 0 once the file
 * went through, whatever its lines' outcomes; 1 when the project or the file is not there; 2 for
 * bad arguments.
 */
async function usersImport(values: Record<string, string | boolean | undefined>): Promise<void> {
  const str = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const projectId = str('project');
  const file = str('file');
  const format = str('format') as SourceFormat;
  const onConflict = str('on-conflict') as 'skip' | 'update' | 'conflict';
  if (!projectId) fail('--project is required.');
  if (!file) fail('--file is required.');
  if (!SOURCE_FORMATS.includes(format))
    fail(`--format must be one of ${SOURCE_FORMATS.join(', ')}.`);
  if (!['skip', 'update', 'conflict'].includes(onConflict))
    fail('--on-conflict must be skip, update or conflict.');
  if (values['login-phones'] === true && format === 'gatehouse')
    fail(
      '--login-phones applies to a vendor export (--format auth0|firebase|supabase|clerk|cognito): in our own format every phone_number is an SMS second factor.',
    );
  const firebase = firebaseParametersOf({
    signer_key: str('signer-key'),
    salt_separator: str('salt-separator'),
    rounds: str('rounds'),
    mem_cost: str('mem-cost'),
  });
  if (typeof firebase === 'string')
    fail(`--signer-key, --salt-separator, --rounds, --mem-cost: ${firebase}.`);
  const path = resolve(file);
  try {
    accessSync(path, constants.R_OK);
    if (!statSync(path).isFile()) throw new Error('not a file');
  } catch {
    process.stderr.write(`Cannot read ${file}: no such readable file.\n`);
    process.exit(1);
  }
  if (format === 'firebase' && !firebase) {
    process.stderr.write(
      'Note: no Firebase scrypt parameters (--signer-key, --salt-separator, --rounds, --mem-cost, from the Firebase console: Authentication → Users → ⋮ → Password hash parameters): users with a password hash will be refused.\n',
    );
  }
  await withDatabase(async (config) => {
    await runMigrations(config.database.url);
    const result = await importUsersFile(config, {
      projectId,
      file: path,
      format,
      onConflict,
      allowWeakHashes: values['allow-weak-hashes'] === true,
      emitEvents: values['emit-events'] === true,
      firebase,
      loginPhones: values['login-phones'] === true,
    });
    if (result.kind === 'no-project') {
      process.stderr.write(`No project ${projectId}.\n`);
      process.exitCode = 1;
      return;
    }
    const { report } = result;
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ counts: report.counts, errors: report.errors })}\n`);
      return;
    }
    process.stdout.write(summary(report, format));
  });
}

function summary(report: ImportReport, format: SourceFormat): string {
  const c = report.counts;
  // JSON documents are numbered by user; NDJSON and CSV by line.
  const unit =
    format === 'firebase' || format === 'cognito' || format === 'keycloak' ? 'user' : 'line';
  const out = [
    `created: ${c.created}`,
    `updated: ${c.updated}`,
    `skipped: ${c.skipped}`,
    `conflicts: ${c.conflicts}`,
    `rejected: ${c.rejected}`,
  ];
  if (report.weak_hashes > 0)
    out.push(`weak hashes let in (upgraded at each user's first sign-in): ${report.weak_hashes}`);
  if (report.credentials_kept > 0)
    out.push(
      `updated users whose email, username, password, MFA and identities were kept (they signed in or changed credentials here): ${report.credentials_kept}`,
    );
  const problems = c.conflicts + c.rejected;
  if (problems > 0) {
    out.push(
      `problems${problems > SHOWN_ERRORS ? ` (the first ${SHOWN_ERRORS} of ${problems}; --json lists ${Math.min(problems, 1000)})` : ''}:`,
    );
    for (const e of report.errors.slice(0, SHOWN_ERRORS)) {
      const fields = e.errors
        ? ` (${Object.entries(e.errors)
            .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
            .join('; ')})`
        : '';
      out.push(`  ${unit} ${e.line}: ${e.type}: ${e.detail}${fields}`);
    }
  }
  return `${out.join('\n')}\n`;
}
