// npm run test:fast: the inner loop. What `npm test` checks, except the slow e2e files (browser
// journeys, the packed SDK packages, fuzzing), with caches in tmp/cache so that a second run
// rechecks only what changed:
//   1. two chains at once, one per core:
//      lint   the Nx graph, folder cycles, eslint --cache, prettier --check --cache
//      types  the build (incremental tsc; its type check covers tsconfig.build.json),
//             console:api --check, then tsc --incremental for every other tsconfig
//   2. the unit tests
//   3. the e2e files without the slow ones, on the build of step 1 (no second build)
// ESLint's cache keys a file by its own text and the config: a type-aware rule whose verdict
// changed only through another file's types is seen by `npm run lint` (npm test and CI run it
// without a cache). `npm test` stays the whole check; docs/testing.md.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const cache = path.join('tmp', 'cache');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const node = (...args) => [process.execPath, ...args];
const tsc = (project) =>
  node(
    bin('typescript', 'bin/tsc'),
    '-p',
    project,
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    path.join(cache, 'tsc', `${project.replace(/[/\\]/g, '_')}.tsbuildinfo`),
  );

const chains = {
  lint: [
    node('tools/scripts/nx-graph.js'),
    node('tools/scripts/folder-cycles.js'),
    node(
      bin('eslint', 'bin/eslint.js'),
      '.',
      '--max-warnings=0',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      path.join(cache, 'eslint'),
    ),
    node(
      bin('prettier', 'bin/prettier.cjs'),
      '--check',
      '.',
      '--log-level',
      'warn',
      '--cache',
      '--cache-location',
      path.join(cache, 'prettier'),
    ),
  ],
  types: [
    node(bin('typescript', 'bin/tsc'), '-p', 'tsconfig.build.json'),
    node('-r', './tools/register.js', 'dist/tools/scripts/console-api.js', '--check'),
    tsc('tsconfig.spec.json'),
    tsc('apps/console/tsconfig.json'),
    tsc('apps/auth-pages/tsconfig.json'),
    tsc('libs/ui-shared/tsconfig.json'),
    tsc('packages/tsconfig.json'),
    tsc('examples/react-spa/tsconfig.json'),
  ],
};

/** Runs `argv`, its output's lines prefixed with `[name]`; resolves to its exit status. */
function run(name, [command, ...args], extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...extraEnv },
      stdio: name ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (name) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop();
          for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
        });
        stream.on('end', () => rest && process.stdout.write(`[${name}] ${rest}\n`));
      }
    }
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function chain(name) {
  const started = Date.now();
  for (const step of chains[name]) {
    const status = await run(name, step);
    if (status !== 0) {
      console.log(`[${name}] failed: ${step.slice(1).join(' ')}`);
      return status;
    }
  }
  console.log(`[${name}] passed in ${Math.round((Date.now() - started) / 1000)} s`);
  return 0;
}

async function main() {
  fs.mkdirSync(path.join(root, cache, 'tsc'), { recursive: true });
  const started = Date.now();
  const statuses = await Promise.all(Object.keys(chains).map(chain));
  if (statuses.some((s) => s !== 0)) return 1;
  const runJest = path.join('tools', 'scripts', 'run-jest.js');
  const unit = await run(null, node(runJest, 'unit'));
  if (unit !== 0) return unit;
  const e2e = await run(null, node(runJest, 'e2e-fast'), { GATEHOUSE_SKIP_BUILD: '1' });
  console.log(`test:fast: ${Math.round((Date.now() - started) / 1000)} s`);
  return e2e;
}

main().then((status) => process.exit(status));
