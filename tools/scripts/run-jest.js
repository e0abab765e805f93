// Runs one Jest suite of `npm test` and writes its machine-readable result to tmp/jest/<suite>.json
// for .ci/run's summary line.
//   node tools/scripts/run-jest.js unit   unit tests (*.spec.ts), no database
//   node tools/scripts/run-jest.js e2e    e2e suites of every app, one file at a time (one test database)
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

const root = path.join(__dirname, '..', '..');
const [suite, ...rest] = process.argv.slice(2);
const apps = ['auth-runtime', 'control-plane', 'webhook-worker', 'console'];
const selection =
  suite === 'unit'
    ? ['-c', 'jest.unit.config.cjs']
    : suite === 'e2e'
      ? // One worker runs the files one at a time (they share the test database); it is replaced once it
        // holds more than 1.5 GB after a file: every file loads its own copy of the modules and boots
        // real apps, and the heap kept about 200 MB a file of it, which in one process ran out of
        // memory (4 GB) near the end of the run.
        // --forceExit: a client a test cut mid-command (Redis outage tests) may keep a timer alive past the run.
        ['--maxWorkers=1', '--workerIdleMemoryLimit=1536MB', '--forceExit', '--projects', ...apps.map((a) => path.join('apps', a, 'test', 'jest.e2e.config.cjs')), path.join('tools', 'test', 'jest.e2e.config.cjs'), path.join('packages', 'test', 'jest.e2e.config.cjs')]
      : null;
if (!selection) {
  console.error('usage: run-jest.js unit|e2e [jest args]');
  process.exit(2);
}
fs.mkdirSync(path.join(root, 'tmp', 'jest'), { recursive: true });
const args = [require.resolve('jest/bin/jest'), ...selection, '--json', '--outputFile', path.join('tmp', 'jest', `${suite}.json`), ...rest];
const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
process.exit(r.status ?? 1);
