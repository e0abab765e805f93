import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Local development secrets: `npm start` and the CLI create `.gatehouse/encryption.key` on first
 * run so a newcomer needs no setup. Production (NODE_ENV=production) must set ENCRYPTION_KEY.
 */
export function withLocalSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.ENCRYPTION_KEY || env.NODE_ENV === 'production') return env;
  const dir = env.GATEHOUSE_DATA_DIR ?? '.gatehouse';
  const file = join(dir, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { ...env, ENCRYPTION_KEY: readFileSync(file, 'utf8').trim() };
}
