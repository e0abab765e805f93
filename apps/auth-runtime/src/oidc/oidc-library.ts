import { createRequire } from 'node:module';
import type * as OidcProviderModule from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

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

/**
 * The request the provider is answering, from the library's own request context (`Provider.ctx`,
 * set inside its routes only): undefined in a hook it calls for the interaction API, or outside any
 * request. Read-only here: what a hook decides from it is oidc-grant-policy.ts's.
 */
export function providerRequestContext(): KoaContextWithOIDC | undefined {
  return (oidcLibrary().Provider as unknown as { ctx?: KoaContextWithOIDC }).ctx;
}
