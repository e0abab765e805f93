import { createRequire } from 'node:module';
import type * as OidcProviderModule from 'oidc-provider';

export type OidcLibrary = typeof OidcProviderModule;

let loaded: OidcLibrary | null = null;

/**
 * `oidc-provider` is an ES module. Node 20.19+ loads it with `require` (require(esm)); Node's own
 * `require` is used explicitly so the module also loads where `require` is a test runner's
 * CommonJS sandbox. Loaded on first use: an app whose projects never enable OIDC never loads it.
 */
export function oidcLibrary(): OidcLibrary {
  if (!loaded) {
    const nodeRequire = createRequire(__filename);
    loaded = nodeRequire('oidc-provider') as OidcLibrary;
  }
  return loaded;
}
