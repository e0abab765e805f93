import 'reflect-metadata';
import { loadConfigOrExit } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import { runMain } from '@gatehouse/platform';

/** `npm run migrate`: creates the database when missing and applies pending migrations. */
runMain('migrate', async () => {
  // Migrations send no mail or SMS: their transports are not asked for (nor refused) here.
  const config = loadConfigOrExit({
    ENCRYPTION_KEY: 'A'.repeat(43) + '=',
    // eslint-disable-next-line no-restricted-properties -- CLI entry point
    ...process.env,
    MAIL_TRANSPORT: 'log',
    SMS_TRANSPORT: 'log',
  });
  await runMigrations(config.database.url);
  process.stdout.write('migrations applied\n');
});
