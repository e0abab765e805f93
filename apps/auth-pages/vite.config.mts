import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

// Served by the auth runtime at /v1/projects/{project id}/pages/ (docs/oidc.md, "Hosted pages"). The
// base is relative, so the same build serves every project's path. The auth runtime replaces the
// nonce placeholder in index.html with a fresh nonce per response and names it in its Content-Security-Policy.
export default defineConfig({
  root: here,
  base: './',
  // The browser apps' shared lib (libs/ui-shared), from source as its tsconfig paths name it.
  resolve: {
    alias: { '@gatehouse/ui-shared': resolve(here, '../../libs/ui-shared/src/index.ts') },
  },
  plugins: [react()],
  html: { cspNonce: 'GATEHOUSE_CSP_NONCE' },
  logLevel: 'warn',
  // `npm run dev` (tools/scripts/dev.js): Vite stands in front of the auth runtime (PUBLIC_AUTH_URL
  // is this server), serving the pages with hot reload and passing everything else on to it.
  server: {
    port: Number(process.env.PAGES_DEV_PORT ?? 5174),
    strictPort: true,
    proxy: {
      '^/(v1|\\.well-known|health|docs)(/|$)': {
        target: `http://localhost:${process.env.AUTH_RUNTIME_PORT ?? 4000}`,
        bypass: (req) =>
          /^\/v1\/projects\/[^/]+\/pages\/(sign-in|consent|signed-out|error)\/?(\?|$)/.test(
            req.url ?? '',
          )
            ? '/index.html'
            : undefined,
      },
    },
  },
  build: {
    outDir: resolve(here, '../../dist/auth-pages'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
