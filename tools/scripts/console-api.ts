import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigOrExit } from '@gatehouse/config';
import { servedOpenApiDocument } from '@gatehouse/http';
import { runMain } from '@gatehouse/platform';
import { documentOnlyApp, type AppName } from './app-entries';
import { withLocalSecrets } from './local-env';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * The types of the OpenAPI document each app serves at /docs/openapi.json, in one copy: the
 * published SDKs' schemas (the auth runtime's for @gatehouse/js, the control plane's for
 * @gatehouse/admin), which the console's typed client re-exports (apps/console/src/api).
 */
export const API_SCHEMA_FILES: Record<Exclude<AppName, 'webhook-worker'>, string> = {
  'auth-runtime': join(ROOT, 'packages', 'js', 'src', 'schema.ts'),
  'control-plane': join(ROOT, 'packages', 'admin', 'src', 'schema.ts'),
};

export async function typesOf(document: object): Promise<string> {
  // openapi-typescript is published as ESM with a CommonJS build; this script runs as CommonJS.
  const { default: openapiTS, astToString } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('openapi-typescript') as typeof import('openapi-typescript');
  const nodes = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    alphabetize: true,
    defaultNonNullable: false,
    emptyObjectsUnknown: true,
  });
  return `// Generated from the served OpenAPI document by \`npm run console:api\`; do not edit.\n\n${astToString(nodes)}`;
}

/**
 * `npm run console:api`: builds the OpenAPI documents of the auth runtime and the control plane
 * from their modules, connecting to no database or Redis (`documentOnly`), and writes their
 * TypeScript types (API_SCHEMA_FILES). `--check` writes nothing and exits 1 when a file is out of
 * date; `npm run lint` runs it.
 */
runMain('console-api', async () => {
  const check = process.argv.includes('--check');
  const config = loadConfigOrExit({
    // eslint-disable-next-line no-restricted-properties -- script entry point
    ...withLocalSecrets(process.env),
    MAIL_TRANSPORT: 'log',
    SMS_TRANSPORT: 'log',
    LOG_LEVEL: 'warn',
  });
  let stale = 0;
  const apps = await Promise.all(
    Object.keys(API_SCHEMA_FILES).map((name) =>
      documentOnlyApp(name as keyof typeof API_SCHEMA_FILES, config),
    ),
  );
  const outputs: [string, string][] = [];
  for (const [i, file] of Object.values(API_SCHEMA_FILES).entries())
    outputs.push([file, await typesOf(servedOpenApiDocument(apps[i])!)]);
  for (const [file, text] of outputs) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      /* not generated yet */
    }
    if (current === text) continue;
    stale += 1;
    if (check) process.stderr.write(`${file} is out of date: run npm run console:api\n`);
    else writeFileSync(file, text);
  }
  process.stdout.write(
    check
      ? `console API types ${stale ? 'out of date' : 'up to date'}\n`
      : `console API types written (${stale} changed)\n`,
  );
  // A one-shot script: it exits with the answer rather than stopping the apps one by one.
  process.exit(check && stale ? 1 : 0);
});
