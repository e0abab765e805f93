// The long fuzz run: the schema-driven fuzz tests of `npm test` (apps/*/test/fuzz.e2e-spec.ts),
// each app for as long as asked, with one seed (printed; replays the run).
//   npm run fuzz -- [--seconds 600] [--seed N] [--app auth-runtime|control-plane] [--trace FILE]
// Uses TEST_DATABASE_URL / TEST_REDIS_URL like the e2e tests. Results go to tmp/fuzz/, not tmp/jest/.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const { parseArgs } = require('node:util');

const root = path.join(__dirname, '..', '..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    seed: { type: 'string' },
    app: { type: 'string' },
    trace: { type: 'string' },
  },
});
const apps = values.app ? [values.app] : ['auth-runtime', 'control-plane'];
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
if (
  !/^\d+$/.test(seed) ||
  !(Number(values.seconds) > 0) ||
  apps.some((a) => !['auth-runtime', 'control-plane'].includes(a))
) {
  console.error(
    'usage: npm run fuzz -- [--seconds N] [--seed N] [--app auth-runtime|control-plane] [--trace FILE]',
  );
  process.exit(2);
}
console.log(
  `fuzz: ${apps.join(' and ')} for ${values.seconds} s each, seed ${seed} (replay with --seed ${seed})`,
);
fs.mkdirSync(path.join(root, 'tmp', 'fuzz'), { recursive: true });
const args = [
  require.resolve('jest/bin/jest'),
  '--runInBand',
  '--forceExit',
  '--projects',
  ...apps.map((a) => path.join('apps', a, 'test', 'jest.e2e.config.cjs')),
  '--json',
  '--outputFile',
  path.join('tmp', 'fuzz', `seed-${seed}.json`),
  'fuzz\\.e2e-spec\\.ts$',
];
const env = {
  ...process.env,
  NODE_ENV: 'test',
  FUZZ_SECONDS: values.seconds,
  FUZZ_SEED: seed,
  ...(values.trace ? { FUZZ_TRACE: path.resolve(values.trace) } : {}),
};
const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
process.exit(r.status ?? 1);
