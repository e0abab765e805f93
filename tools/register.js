// Resolves the @gatehouse/* path aliases of tsconfig.base.json inside the compiled dist/ tree.
const path = require('node:path');
const tsConfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../tsconfig.base.json');
tsConfigPaths.register({
  baseUrl: path.join(__dirname, '..', 'dist'),
  paths: compilerOptions.paths,
});
