import 'reflect-metadata';
import { loadConfigOrExit } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import { runMain } from '@gatehouse/platform';

/** `npm run migrate`: creates the database when missing and applies pending migrations. */
runMain('migrate', async () => {
  // eslint-disable-next-line no-restricted-properties -- CLI entry point
  const config = loadConfigOrExit({ ENCRYPTION_KEY: 'A'.repeat(43) + '=', ...process.env });
  await runMigrations(config.database.url);
  process.stdout.write('migrations applied\n');
});
