import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
let built = false;

/**
 * Builds the hosted pages (apps/auth-pages) as `npm run build:pages` does, once per test file.
 * Vite writes into a folder of its own, then the build is merged into dist/auth-pages without
 * emptying it, index.html last: an auth runtime of another test run, serving an earlier build,
 * keeps the hashed assets its page names (Vite's own emptyOutDir would delete them under it).
 */
export function buildAuthPages(): void {
  if (built) return;
  const out = mkdtempSync(join(tmpdir(), 'gatehouse-auth-pages-build-'));
  try {
    const build = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vite/bin/vite.js'),
        'build',
        '-c',
        'apps/auth-pages/vite.config.mts',
        '--outDir',
        out,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (build.status !== 0)
      throw new Error(`auth pages build failed:\n${build.stdout}\n${build.stderr}`);
    const dist = join(ROOT, 'dist', 'auth-pages');
    mkdirSync(dist, { recursive: true });
    for (const entry of readdirSync(out))
      if (entry !== 'index.html') cpSync(join(out, entry), join(dist, entry), { recursive: true });
    const staged = join(dist, `.index-${process.pid}.html`);
    cpSync(join(out, 'index.html'), staged);
    renameSync(staged, join(dist, 'index.html'));
    built = true;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
