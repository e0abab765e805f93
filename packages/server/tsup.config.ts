import { defineConfig } from 'tsup';

// ESM + CommonJS + declarations; one entry per framework adapter so an app loads only its own.
export default defineConfig({
  entry: ['src/index.ts', 'src/express.ts', 'src/nest.ts', 'src/next.ts', 'src/fastify.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  // Shared chunks in the CommonJS build too, so the adapters and the index share one copy of each module.
  splitting: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  tsconfig: '../tsconfig.json',
});
