import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const packages = resolve(here, '../../packages');

// `npm run example:react-spa` (from the repository root) serves this app on http://localhost:5173.
// @gatehouse/react and @gatehouse/js resolve to the packages' built output (`npm run build:sdk js
// react`, through their package.json `exports`), as they would from npm: the example and its
// browser test exercise what is published, not the sources. In your own app, `npm install
// @gatehouse/react` and drop the aliases.
export default defineConfig({
  root: here,
  plugins: [react()],
  resolve: {
    alias: {
      '@gatehouse/js': resolve(packages, 'js'),
      '@gatehouse/react': resolve(packages, 'react'),
    },
  },
  // The origin must be one of the project's allowed origins, exactly: http://localhost:5173.
  server: { host: 'localhost', port: 5173, strictPort: true },
  preview: { host: 'localhost', port: 5173, strictPort: true },
  build: { outDir: resolve(here, 'dist'), emptyOutDir: true, sourcemap: true },
});
