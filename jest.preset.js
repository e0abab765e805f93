// Shared Jest settings for every project: ts-jest in transpile-only mode (type checking is the
// separate `typecheck` step) and the @gatehouse/* aliases of tsconfig.base.json.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.tsx?$': [
      'ts-jest',
      { tsconfig: path.join(__dirname, 'tsconfig.spec.json'), diagnostics: false },
    ],
    // ESM-only dependencies (otplib's @scure/@noble; the relying-party libraries openid-client, oauth4webapi and jose) are transpiled to CommonJS for Jest; Node itself loads them natively.
    '^.+\\.m?js$': [
      'ts-jest',
      {
        tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', esModuleInterop: true },
        diagnostics: false,
      },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@scure|@noble|@otplib|otplib|openid-client|oauth4webapi|jose)/)',
  ],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  setupFiles: ['reflect-metadata'],
  moduleNameMapper: {
    // The published SDK packages (packages/*), from source.
    '^@gatehouse/(server|js|react|admin)$': path.join(__dirname, 'packages/$1/src/index.ts'),
    '^@gatehouse/server/(express|nest|next|fastify)$': path.join(
      __dirname,
      'packages/server/src/$1.ts',
    ),
    // An app's entry point, for launchers (tools/scripts/app-entries.ts).
    '^@gatehouse/app-entry/(auth-runtime|control-plane|webhook-worker)$': path.join(
      __dirname,
      'apps/$1/src/app-factory.ts',
    ),
    '^@gatehouse/(.*)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
};
