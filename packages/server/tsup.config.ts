import { defineConfig } from 'tsup';
import { sdkBuild } from '../tsup.shared';

// One entry per framework adapter so an app loads only its own; shared chunks in the CommonJS
// build too, so the adapters and the index share one copy of each module.
export default defineConfig({
  ...sdkBuild,
  entry: ['src/index.ts', 'src/express.ts', 'src/nest.ts', 'src/next.ts', 'src/fastify.ts'],
  splitting: true,
});
