// Computes the Nx project graph (offline, no daemon, no cloud) so that the ESLint rule
// @nx/enforce-module-boundaries has a graph to check against.
const { execFileSync } = require('node:child_process');
execFileSync(process.execPath, [require.resolve('nx/bin/nx.js'), 'show', 'projects'], {
  stdio: 'ignore',
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true' },
});
