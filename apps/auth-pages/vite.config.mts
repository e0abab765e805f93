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
  plugins: [react()],
  html: { cspNonce: 'GATEHOUSE_CSP_NONCE' },
  logLevel: 'warn',
  build: {
    outDir: resolve(here, '../../dist/auth-pages'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
