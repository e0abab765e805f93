import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';

/** The apps a launcher can start, with the factory each app's `src/app-factory` exports. */
const ENTRIES = {
  'auth-runtime': 'buildAuthRuntime',
  'control-plane': 'buildControlPlane',
  'webhook-worker': 'buildWebhookWorker',
} as const;

export type AppName = keyof typeof ENTRIES;
export type BuildApp = (config: AppConfig) => Promise<NestExpressApplication>;

/**
 * An app's factory, loaded by name when the launcher runs. Apps are not libraries: no project
 * imports their code (the module-boundary rule), so a launcher that runs several of them in one
 * process (standalone mode) loads each through its one entry point, `src/app-factory`, the file
 * its own `main.ts` starts from (docs/architecture.md).
 */
export function appFactory(name: AppName): BuildApp {
  // Beside this file in the build (dist/tools/scripts) and in the sources (tools/scripts) alike.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const entry = require(join(__dirname, '..', '..', 'apps', name, 'src', 'app-factory')) as Record<string, unknown>;
  const build = entry[ENTRIES[name]];
  if (typeof build !== 'function') throw new Error(`apps/${name}/src/app-factory exports no ${ENTRIES[name]}`);
  return build as BuildApp;
}
