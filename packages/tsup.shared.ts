import type { Options } from 'tsup';

/** What every SDK package's build shares: ESM + CommonJS + declarations, neutral platform, ES2022. */
export const sdkBuild: Options = {
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  tsconfig: '../tsconfig.json',
};
