// e2e of the SDK packages (packages/*) against the real stack: the built and packed packages in a
// project outside the workspace, the examples, and a browser journey through the React example.
const path = require('node:path');
const root = path.join(__dirname, '..', '..');

module.exports = {
  ...require(path.join(root, 'jest.preset.js')),
  displayName: 'sdk',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  globalSetup: path.join(root, 'libs/testing/src/global-setup.ts'),
  testTimeout: 60000,
};
