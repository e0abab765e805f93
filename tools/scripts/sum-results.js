// Prints the one summary line CI reads, summed over every Jest run of `npm test`:
//   N passed, N failed
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
  failed += (r.testResults || []).filter((s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed')).length;
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
