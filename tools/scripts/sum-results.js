// Prints the one summary line CI reads, summed over every Jest run of `npm test`:
//   N passed, N failed
// Given the exit status of `npm test`, a failure that no Jest run recorded (lint, typecheck, a
// Jest process that died before writing its results) counts as one failure, never as a pass.
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..', '..', 'tmp', 'jest');
let passed = 0;
let failed = 0;
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  if (!file.endsWith('.json')) continue;
  const r = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A suite that failed outside its tests (failed to load, a beforeAll/afterAll hook failed or timed
  // out) has no failed test to count; count it as one failure so it is never hidden.
  failed += (r.testResults || []).filter(
    (s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed'),
  ).length;
}
const status = Number(process.argv[2] ?? 0);
if (status !== 0 && failed === 0) {
  process.stderr.write(
    `npm test exited ${status} without a failed test recorded (lint, typecheck or a crashed Jest run)\n`,
  );
  failed = 1;
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
