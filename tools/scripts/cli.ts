import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfigOrExit, type AppConfig } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import { createIdentityContext, ProvisioningService } from '@gatehouse/identity';
import { runMain } from '@gatehouse/platform';
import { withLocalSecrets } from './local-env';
import { reachEmbeddedDatabase, shouldRunStandalone, standaloneDataDir } from './standalone';

const USAGE = `Usage:
  npm run cli -- bootstrap --admin-email E --admin-password P [--tenant-name N] [--json]
  npm run cli -- tenant create --name N --admin-email E --admin-password P [--json]`;

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
      json: { type: 'boolean', default: false },
    },
  });
  const command = positionals.join(' ');
  if (command !== 'bootstrap' && command !== 'tenant create') fail(`Unknown command "${command}".`);
  const email = values['admin-email'];
  const password = values['admin-password'];
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) fail('--admin-email must be an email address.');
  if (!password || password.length < 8) fail('--admin-password must have at least 8 characters.');
  if (command === 'tenant create' && !values.name) fail('--name is required.');

  // The CLI sends no mail or SMS: their transports are not asked for (nor refused) here.
  // eslint-disable-next-line no-restricted-properties -- CLI entry point
  const env = { ...withLocalSecrets(process.env), MAIL_TRANSPORT: 'log', SMS_TRANSPORT: 'log' };
  const args = { email, password, name: values.name, tenantName: values['tenant-name'], json: values.json };
  // Where `npm start` runs standalone, the tenant goes to its embedded database: through the running
  // service, or in the data directory itself while the service is stopped.
  const standalone = await shouldRunStandalone(env);
  const config = loadConfigOrExit(standalone ? { ...env, GATEHOUSE_STANDALONE: '1' } : env);
  if (!standalone) return provision(command, args, config);
  const embedded = await reachEmbeddedDatabase(standaloneDataDir(env));
  try {
    await provision(command, args, loadConfigOrExit({ ...env, GATEHOUSE_STANDALONE: '1', DATABASE_URL: embedded.url }));
  } finally {
    await embedded.close();
  }
});

async function provision(command: string, args: { email: string; password: string; name?: string; tenantName?: string; json: boolean }, config: AppConfig): Promise<void> {
  await runMigrations(config.database.url);
  const ctx = await createIdentityContext(config);
  try {
    const provisioning = ctx.get(ProvisioningService);
    const summary =
      command === 'bootstrap'
        ? await provisioning.bootstrap({ adminEmail: args.email, adminPassword: args.password, tenantName: args.tenantName })
        : await provisioning.createTenant({ name: args.name!, adminEmail: args.email, adminPassword: args.password });
    const out = { tenant_id: summary.tenant_id, project_id: summary.project_id, project_key: summary.project_key, admin_user_id: summary.admin_user_id };
    process.stdout.write(args.json ? `${JSON.stringify(out)}\n` : Object.entries(out).map(([k, v]) => `${k}: ${v}`).join('\n') + '\n');
  } finally {
    await ctx.close();
  }
}
