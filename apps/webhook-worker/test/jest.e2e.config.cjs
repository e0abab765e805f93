// e2e tests of webhook-worker: the real app against real PostgreSQL and Redis (see libs/testing).
const path = require('node:path');
const root = path.join(__dirname, '..', '..', '..');

module.exports = {
  ...require(path.join(root, 'jest.preset.js')),
  displayName: 'webhook-worker',
  rootDir: path.join(__dirname, '..'),
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: path.join(root, 'libs/testing/src/global-setup.ts'),
  testTimeout: 30000,
};
