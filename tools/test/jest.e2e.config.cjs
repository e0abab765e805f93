// e2e of the whole service as `npm start` runs it: standalone mode (PGlite, in-process cache and queues).
const path = require('node:path');
const root = path.join(__dirname, '..', '..');

module.exports = {
  ...require(path.join(root, 'jest.preset.js')),
  displayName: 'standalone',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
  globalSetup: path.join(root, 'libs/testing/src/global-setup.ts'),
  testTimeout: 60000,
};
