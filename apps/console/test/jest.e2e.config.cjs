// e2e tests of the console: the real stack started as `npm start` starts it, driven in Debian's Chromium.
const path = require('node:path');
const root = path.join(__dirname, '..', '..', '..');

module.exports = {
  ...require(path.join(root, 'jest.preset.js')),
  displayName: 'console',
  rootDir: path.join(__dirname, '..'),
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: path.join(root, 'libs/testing/src/global-setup.ts'),
  testTimeout: 60000,
};
