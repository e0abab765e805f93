import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';

export type AppName = 'auth-runtime' | 'control-plane' | 'webhook-worker';
export type BuildApp = (config: AppConfig) => Promise<NestExpressApplication>;

/**
 * Each app's factory, the one entry point its own `main.ts` starts from (`src/app-factory`),
 * under the alias `@gatehouse/app-entry/<app>` (tsconfig.base.json). Apps are not libraries: the
 * module-boundary rule lets no project import an app's code, except a launcher importing these
 * entries (eslint.config.mjs `allow`), which runs several apps in one process (standalone mode,
 * `console:api`). Loaded when an app starts, so a command that starts none (the CLI) loads none.
 */
const ENTRIES: Record<AppName, () => Promise<BuildApp>> = {
  'auth-runtime': async () => (await import('@gatehouse/app-entry/auth-runtime')).buildAuthRuntime,
  'control-plane': async () =>
    (await import('@gatehouse/app-entry/control-plane')).buildControlPlane,
  'webhook-worker': async () =>
    (await import('@gatehouse/app-entry/webhook-worker')).buildWebhookWorker,
};

/** An app's factory by name (docs/architecture.md). */
export function appFactory(name: AppName): BuildApp {
  return async (config) => (await ENTRIES[name]())(config);
}

/**
 * An HTTP app that only holds its OpenAPI document (`servedOpenApiDocument`) and connects to no
 * database, Redis or queue (`console:api`).
 */
export async function documentOnlyApp(
  name: Exclude<AppName, 'webhook-worker'>,
  config: AppConfig,
): Promise<NestExpressApplication> {
  const build =
    name === 'auth-runtime'
      ? (await import('@gatehouse/app-entry/auth-runtime')).buildAuthRuntime
      : (await import('@gatehouse/app-entry/control-plane')).buildControlPlane;
  return build(config, { documentOnly: true });
}
