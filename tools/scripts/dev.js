// npm run dev: the whole service for working on it, everything rebuilt and reloaded on change.
//   tsc --watch   compiles the apps, libraries and tools into dist/ as files change
//   node --watch  runs `npm start`'s launcher (dist/tools/scripts/start.js: the three apps) and
//                 restarts it, and with it the apps, whenever dist/ changes
//   vite          serves the console (http://localhost:5173/console/) and the hosted pages, in front
//                 of the auth runtime (http://localhost:5174), with hot reload
// Environment as for `npm start` (the same choice of standalone mode); PUBLIC_AUTH_URL is the pages'
// Vite server and PUBLIC_CONSOLE_URL the console's, so a database bootstrapped here lets the console
// call the auth runtime (standalone data in .gatehouse/dev); docs/testing.md, "npm run dev".
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const consolePort = process.env.CONSOLE_DEV_PORT ?? '5173';
const pagesPort = process.env.PAGES_DEV_PORT ?? '5174';
const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV || 'development',
  GATEHOUSE_DATA_DIR: process.env.GATEHOUSE_DATA_DIR ?? path.join('.gatehouse', 'dev'),
  PUBLIC_AUTH_URL: process.env.PUBLIC_AUTH_URL ?? `http://localhost:${pagesPort}`,
  PUBLIC_CONSOLE_URL: process.env.PUBLIC_CONSOLE_URL ?? `http://localhost:${consolePort}/console`,
};
const children = [];

/** Starts a command whose output lines are prefixed with its name; `onLine` sees each line. */
function run(name, command, args, onLine = () => {}) {
  // A process group of its own: stopping it ends what it started too (node --watch's child, the apps).
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        process.stdout.write(`[${name}] ${line}\n`);
        onLine(line);
      }
    });
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    process.stdout.write(`[dev] ${name} exited (${code ?? signal}); stopping.\n`);
    stop(1);
  });
  children.push(child);
  return child;
}

let stopping = false;
const signal = (child, name) => {
  try {
    process.kill(-child.pid, name);
  } catch {
    /* already gone */
  }
};
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) signal(child, 'SIGTERM');
  // The apps' graceful shutdown, then whatever is left is killed.
  setTimeout(() => {
    for (const child of children) signal(child, 'SIGKILL');
    process.exit(code);
  }, 8000).unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
let started = false;
run(
  'tsc',
  process.execPath,
  [
    require.resolve('typescript/bin/tsc'),
    '-p',
    'tsconfig.build.json',
    '--watch',
    '--preserveWatchOutput',
  ],
  (line) => {
    // The first compile is done (tsc emits even with type errors, which `npm run typecheck` reports).
    if (started || !/Watching for file changes/.test(line)) return;
    started = true;
    run('apps', process.execPath, [
      '--watch-path=dist/apps',
      '--watch-path=dist/libs',
      '--watch-path=dist/tools',
      '-r',
      './tools/register.js',
      'dist/tools/scripts/start.js',
    ]);
    run('console', process.execPath, [
      vite,
      '-c',
      'apps/console/vite.config.mts',
      '--clearScreen',
      'false',
      '--logLevel',
      'info',
    ]);
    run('pages', process.execPath, [
      vite,
      '-c',
      'apps/auth-pages/vite.config.mts',
      '--clearScreen',
      'false',
      '--logLevel',
      'info',
    ]);
  },
);
