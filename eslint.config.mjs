// ESLint flat config: Nx module boundaries, type-checked TypeScript rules, and the bans of STYLE.md.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.nx/**',
      'coverage/**',
      'tmp/**',
      '.gatehouse/**',
      '**/*.cjs',
      '**/*.js',
      '**/*.mjs',
      'apps/console/src/api/auth-runtime.ts',
      'apps/console/src/api/control-plane.ts',
      'packages/*/dist/**',
      'packages/*/src/schema.ts',
      'examples/**/dist/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts'],
    ignores: [
      'apps/console/src/**',
      'apps/auth-pages/src/**',
      'libs/ui-shared/**',
      'packages/*/src/**',
      'packages/*/tsup.config.ts',
      'packages/tsup.shared.ts',
      'examples/react-spa/**',
    ],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.spec.json'], tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // Launchers (tools/scripts/app-entries.ts) start apps through their one entry point.
          allow: ['@gatehouse/app-entry/*'],
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:feature',
                'type:domain',
                'type:data',
                'type:infra',
                'type:util',
                'type:test',
              ],
            },
            {
              sourceTag: 'type:feature',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:infra', 'type:util'],
            },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:data', 'type:infra', 'type:util'],
            },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:util'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:data', 'type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: [] },
            {
              sourceTag: 'type:test',
              onlyDependOnLibsWithTags: [
                'type:domain',
                'type:data',
                'type:infra',
                'type:util',
                'type:sdk',
                'type:test',
              ],
            },
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:sdk'] },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: [
                'type:feature',
                'type:domain',
                'type:data',
                'type:infra',
                'type:util',
                'type:test',
              ],
            },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through @gatehouse/config (AppConfig).',
        },
      ],
    },
  },
  {
    // The console and the hosted auth pages are browser apps (their tsconfig.json: DOM, JSX); of the
    // workspace they import only their shared lib, libs/ui-shared (type:ui), which imports nothing internal.
    files: [
      'apps/console/src/**/*.ts',
      'apps/console/src/**/*.tsx',
      'apps/console/vite.config.mts',
      'apps/auth-pages/src/**/*.ts',
      'apps/auth-pages/src/**/*.tsx',
      'apps/auth-pages/vite.config.mts',
      'libs/ui-shared/src/**/*.ts',
      'libs/ui-shared/src/**/*.tsx',
    ],
    languageOptions: {
      parserOptions: {
        project: [
          './apps/console/tsconfig.json',
          './apps/auth-pages/tsconfig.json',
          './libs/ui-shared/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:ui'] },
            { sourceTag: 'type:ui', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@gatehouse/*', '!@gatehouse/ui-shared'],
              message: 'The browser apps talk to the services over their public APIs only.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        {
          name: 'localStorage',
          message: 'No token or secret in localStorage (docs/console.md, docs/oidc.md).',
        },
      ],
    },
  },
  {
    // The published SDK packages (packages/*): browser, edge and Node runtimes; they talk to Gatehouse over its public APIs only.
    files: [
      'packages/*/src/**/*.ts',
      'packages/*/src/**/*.tsx',
      'packages/*/tsup.config.ts',
      'packages/tsup.shared.ts',
    ],
    ignores: ['packages/test/**', 'packages/*/src/schema.ts'],
    languageOptions: {
      parserOptions: {
        project: ['./packages/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@gatehouse/*',
                '!@gatehouse/js',
                '!@gatehouse/server',
                '!@gatehouse/react',
                '!@gatehouse/admin',
              ],
              message:
                'An SDK package depends on published packages only, never on a workspace library.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'localStorage', message: 'No token or secret in localStorage (docs/sdk.md).' },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.spec.ts', 'packages/*/src/**/*.spec.tsx'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // examples/react-spa: a browser app on the SDK packages (its tsconfig: DOM, JSX, vite/client).
    files: [
      'examples/react-spa/src/**/*.ts',
      'examples/react-spa/src/**/*.tsx',
      'examples/react-spa/vite.config.mts',
    ],
    languageOptions: {
      parserOptions: {
        project: ['./examples/react-spa/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-globals': [
        'error',
        { name: 'localStorage', message: 'No token or secret in localStorage (docs/sdk.md).' },
      ],
    },
  },
  {
    // @gatehouse/testing is for tests only.
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', 'libs/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@gatehouse/testing',
              message: '@gatehouse/testing may be imported only from tests.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  prettier,
);
