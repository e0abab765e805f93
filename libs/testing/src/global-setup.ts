// Jest globalSetup: migrate the test database once per run. Runs outside Jest's module mapper, so
// it imports the entities library by relative path.
// eslint-disable-next-line @nx/enforce-module-boundaries -- globalSetup cannot use path aliases
import { runMigrations } from '../../entities/src/data-source';
import { TEST_DATABASE_URL } from './test-env';

export default async function globalSetup(): Promise<void> {
  await runMigrations(TEST_DATABASE_URL);
}
