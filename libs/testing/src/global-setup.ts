// Jest globalSetup: compile the apps once (journeys across apps run them as real processes from
// dist/), migrate the test database and clone it for every Jest worker. Runs outside Jest's module
// mapper, so it imports the entities library by relative path.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- globalSetup cannot use path aliases
import { runMigrations } from '../../entities/src/data-source';
import { cloneWorkerDatabases } from './worker-databases';
import { TEST_TEMPLATE_DATABASE_URL } from './test-env';

let built = false;

export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- test harness switch
  if (!built && process.env.GATEHOUSE_SKIP_BUILD !== '1') {
    const root = join(__dirname, '..', '..', '..');
    // Type errors are the `typecheck` step's business; tsc emits regardless, which is all we need here.
    spawnSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
      { cwd: root, stdio: 'ignore' },
    );
    built = true;
  }
  await runMigrations(TEST_TEMPLATE_DATABASE_URL);
  await cloneWorkerDatabases(TEST_TEMPLATE_DATABASE_URL, Math.max(1, globalConfig.maxWorkers));
}
