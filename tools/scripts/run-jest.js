// Runs one Jest suite of `npm test` and writes its machine-readable result to tmp/jest/<suite>.json
// for .ci/run's summary line.
//   node tools/scripts/run-jest.js unit      unit tests (*.spec.ts), no database
//   node tools/scripts/run-jest.js e2e       e2e suites of every app, files in parallel (a database per worker)
//   node tools/scripts/run-jest.js e2e-fast  the same without the slow files: browser journeys
//                                            (Chromium), the packed SDK packages and fuzzing
// GATEHOUSE_TEST_WORKERS=N sets the number of e2e workers (default: one per core); 1 runs the files one at a time.
// `e2e` runs the slow files after the others, one at a time (see below).
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');

const root = path.join(__dirname, '..', '..');
const [suite, ...rest] = process.argv.slice(2);
const apps = ['auth-runtime', 'control-plane', 'webhook-worker', 'console'];
const e2eProjects = [
  ...apps.map((a) => path.join('apps', a, 'test')),
  path.join('tools', 'test'),
  path.join('packages', 'test'),
];

/** What makes an e2e file slow: a browser (playwright-core), the packed SDK packages, fuzzing. */
const SLOW = /playwright-core|\binstallPackedSdk\(|\bfuzzApi\(/;

/** Whether `file` or a test-support module it imports by relative path is slow. */
function isSlow(file, seen = new Set()) {
  if (seen.has(file) || !fs.existsSync(file)) return false;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  if (SLOW.test(text)) return true;
  const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) =>
    path.resolve(path.dirname(file), `${m[1]}.ts`),
  );
  return imports.some((f) => isSlow(f, seen));
}

function slowFiles() {
  const files = e2eProjects.flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.e2e-spec.ts'))
      .map((f) => path.join(root, dir, f)),
  );
  return files.filter((f) => isSlow(f));
}

/** Jest's options for e2e files: `workers` at once, leaving out the files matching `ignored`. */
function e2eOptions(workers, ignored) {
  // Each worker has its own database and Redis database (libs/testing/src/test-env.ts), so the
  // files run in parallel. A worker is replaced once it holds more than 1.5 GB after a file: every
  // file loads its own copy of the modules and boots real apps, and the heap kept about 200 MB a
  // file of it. --forceExit: a client a test cut mid-command (Redis outage tests) may keep a timer
  // alive past the run.
  const asked = rest.some((a) => /^(--maxWorkers|-w|--runInBand|-i)\b/.test(a));
  return [
    ...(asked ? [] : [`--maxWorkers=${workers}`]),
    '--workerIdleMemoryLimit=1536MB',
    '--forceExit',
    // A file that stays unfinished ends the run instead of waiting for CI's limit (jest-watchdog.js).
    '--reporters=default',
    `--reporters=${path.join(__dirname, 'jest-watchdog.js')}`,
    ...(ignored.length ? ['--testPathIgnorePatterns', ...ignored] : []),
    '--projects',
    ...e2eProjects.map((dir) => path.join(dir, 'jest.e2e.config.cjs')),
  ];
}

const escape = (file) => path.relative(root, file).replace(/[.]/g, '\\.');

function runJest(name, options, extraEnv = {}) {
  fs.mkdirSync(path.join(root, 'tmp', 'jest'), { recursive: true });
  const output = path.join('tmp', 'jest', `${name}.json`);
  const env = { ...process.env, NODE_ENV: 'test', ...extraEnv };
  const jest = require.resolve('jest/bin/jest');
  const args = [jest, ...options, '--json', '--outputFile', output, ...rest];
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  const status = r.status ?? 1;
  const watchdog = readWatchdog(path.join(root, output));
  if (!watchdog) return status;
  // The watchdog ended the run (a file stayed unfinished): the files that did not finish run once
  // more, one at a time, in a new run whose results count like any other; its own watchdog ends
  // it too if a file hangs again, and then those files count as failed.
  const listed = spawnSync(process.execPath, [jest, ...options, '--listTests', '--json', ...rest], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  const finished = new Set(watchdog.finished);
  const again = JSON.parse(listed.stdout || '[]').filter((f) => !finished.has(f));
  console.error(
    `run-jest: ${watchdog.stuck.join(', ')} did not finish; running ${again.length} unfinished file(s) again`,
  );
  if (!again.length) return status;
  const rerun = runOnce(
    `${name}-again`,
    [...e2eOptions(1, []), '--runTestsByPath', ...again.map((f) => path.relative(root, f))],
    { ...extraEnv, GATEHOUSE_SKIP_BUILD: '1' },
  );
  const failedBefore = JSON.parse(fs.readFileSync(path.join(root, output), 'utf8')).numFailedTests;
  return rerun || (failedBefore > 0 ? 1 : 0);
}

/** One Jest run without a second chance (the files the watchdog stopped are counted as failed). */
function runOnce(name, options, extraEnv) {
  const output = path.join('tmp', 'jest', `${name}.json`);
  const args = [require.resolve('jest/bin/jest'), ...options, '--json', '--outputFile', output];
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', ...extraEnv },
  });
  const watchdog = readWatchdog(path.join(root, output));
  if (watchdog) {
    // Count each file that hung a second time as one failed suite (sum-results.js).
    const result = JSON.parse(fs.readFileSync(path.join(root, output), 'utf8'));
    for (const file of watchdog.stuck)
      result.testResults.push({
        name: file,
        status: 'failed',
        message: 'did not finish',
        assertionResults: [],
      });
    fs.writeFileSync(path.join(root, output), JSON.stringify(result));
  }
  return r.status ?? 1;
}

/** The watchdog's entry in a run's --json output, if the watchdog ended that run. */
function readWatchdog(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')).watchdog ?? null;
  } catch {
    return null;
  }
}

const workers = process.env.GATEHOUSE_TEST_WORKERS ?? String(os.availableParallelism());
if (suite === 'unit') {
  process.exit(runJest('unit', ['-c', 'jest.unit.config.cjs']));
} else if (suite === 'e2e-fast') {
  process.exit(runJest('e2e-fast', e2eOptions(workers, slowFiles().map(escape))));
} else if (suite === 'e2e') {
  // Files named on the command line run as asked. The whole suite runs in two parts: every file
  // but the slow ones in parallel, then the slow ones one at a time (browser journeys wait on
  // Chromium with short timeouts, fuzzing runs to a time budget, packing spawns npm), kept apart
  // from each other and from the rest so that contention does not make them flaky.
  const named = rest.some((a) => !a.startsWith('-'));
  const slow = slowFiles();
  if (named || workers === '1' || !slow.length)
    process.exit(runJest('e2e', e2eOptions(workers, [])));
  const parallel = runJest('e2e', e2eOptions(workers, slow.map(escape)));
  // The build in dist/ is the one the first part made.
  const serial = runJest(
    'e2e-slow',
    [...e2eOptions(1, []), '--runTestsByPath', ...slow.map((f) => path.relative(root, f))],
    { GATEHOUSE_SKIP_BUILD: '1' },
  );
  process.exit(parallel || serial);
} else {
  console.error('usage: run-jest.js unit|e2e|e2e-fast [jest args]');
  process.exit(2);
}
