import { gzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The gzipped size of what the first page load runs: the entry chunk and the chunks it imports statically. */
const INITIAL_JS_BUDGET_BYTES = 300 * 1024;

function initialJavaScriptBudget(): Plugin {
  return {
    name: 'gatehouse-initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = byName.get(fileName);
        if (!chunk || initial.has(fileName)) return;
        initial.add(fileName);
        chunk.imports.forEach(visit);
      };
      chunks.filter((c) => c.isEntry).forEach((c) => visit(c.fileName));
      const bytes = [...initial].reduce((sum, f) => sum + gzipSync(byName.get(f)!.code).length, 0);
      const kb = (bytes / 1024).toFixed(1);
      this.info(
        `initial JavaScript ${kb} KB gzipped in ${initial.size} chunk(s) (budget ${INITIAL_JS_BUDGET_BYTES / 1024} KB)`,
      );
      process.stdout.write(
        `console: initial JavaScript ${kb} KB gzipped (budget ${INITIAL_JS_BUDGET_BYTES / 1024} KB)\n`,
      );
      if (bytes > INITIAL_JS_BUDGET_BYTES)
        this.error(
          `initial JavaScript is ${kb} KB gzipped, over the ${INITIAL_JS_BUDGET_BYTES / 1024} KB budget`,
        );
    },
  };
}

const here = dirname(fileURLToPath(import.meta.url));

// Served by the control plane at /console (docs/console.md). The control plane replaces the nonce
// placeholder in index.html with a fresh nonce per response and names it in its Content-Security-Policy.
export default defineConfig({
  root: here,
  base: '/console/',
  // The browser apps' shared lib (libs/ui-shared), from source as its tsconfig paths name it.
  resolve: {
    alias: { '@gatehouse/ui-shared': resolve(here, '../../libs/ui-shared/src/index.ts') },
  },
  plugins: [react(), initialJavaScriptBudget()],
  html: { cspNonce: 'GATEHOUSE_CSP_NONCE' },
  logLevel: 'warn',
  // `npm run dev` (tools/scripts/dev.js): Vite serves the console with hot reload and passes its
  // configuration and the admin API on to the control plane.
  server: {
    port: Number(process.env.CONSOLE_DEV_PORT ?? 5173),
    strictPort: true,
    proxy: Object.fromEntries(
      ['/console/config.json', '/v1/admin'].map((path) => [
        path,
        `http://localhost:${process.env.CONTROL_PLANE_PORT ?? 4001}`,
      ]),
    ),
  },
  build: {
    outDir: resolve(here, '../../dist/console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
