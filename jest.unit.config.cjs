// Unit tests: `*.spec.ts` beside the code, no database, no network.
module.exports = {
  ...require('./jest.preset.js'),
  displayName: 'unit',
  rootDir: __dirname,
  testMatch: [
    '<rootDir>/apps/**/src/**/*.spec.ts',
    '<rootDir>/libs/**/src/**/*.spec.ts',
    '<rootDir>/tools/**/*.spec.ts',
    '<rootDir>/packages/*/src/**/*.spec.ts',
    '<rootDir>/packages/*/src/**/*.spec.tsx',
  ],
};
