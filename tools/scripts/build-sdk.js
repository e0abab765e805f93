// `npm run build:sdk [name…]`: builds the SDK packages (packages/*) with tsup, ESM + CommonJS +
// type declarations, into packages/<name>/dist. Dependencies first (@gatehouse/react needs @gatehouse/js).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const ALL = ['server', 'js', 'react', 'admin'];
const names = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
for (const name of names) {
  if (!ALL.includes(name)) {
    console.error(`unknown package ${name} (one of ${ALL.join(', ')})`);
    process.exit(2);
  }
  const cwd = path.join(root, 'packages', name);
  const r = spawnSync(process.execPath, [require.resolve('tsup/dist/cli-default.js'), '--silent'], {
    cwd,
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error(`build of @gatehouse/${name} failed`);
    process.exit(r.status ?? 1);
  }
}
