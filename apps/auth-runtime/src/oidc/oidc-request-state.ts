import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestMeta } from '@gatehouse/identity';
import type { ActiveGrantRow, OidcUserRow } from './oauth-grants.repository';

/**
 * The one piece of request-scoped state the provider needs, and why it cannot be an argument:
 * oidc-provider calls its storage adapter (`find`, `upsert`, `destroy`), `findAccount`,
 * `loadExistingGrant` and `Session#ensureClientContainer` with no argument that carries the
 * Gatehouse session behind its own session, nor the request's address. Its own request context
 * (`Provider.ctx`) exists only inside its routes, and the interaction API saves grants outside any
 * of them. So a request to a project's provider (oidcMiddleware) and a grant saved by the
 * interaction API run inside one of these, and the hooks read it. Every rule they apply is in
 * oidc-grant-policy.ts, given what is read here as an explicit input.
 */
export interface OidcRequestState {
  /** The request's address and user agent, for the events the adapter records. */
  readonly meta: RequestMeta;
  /**
   * The Gatehouse session signing the user in to the provider, once known: the completion of the
   * interaction being resumed, the provider session's own, or the interaction API's caller. Saved
   * with every grant, and the `sid` of every ID token.
   */
  sid: string | null;
  /**
   * The resumed sign-in is another account than the browser's provider session: that session is
   * not read (the provider starts a new one). Known before the provider reads its session, which it
   * does before the interaction.
   */
  freshSession: boolean;
  /** What this request already read (a memo, never a rule): the grants checked and their users, and the Gatehouse sessions found live. */
  readonly checkedGrants: Map<string, ActiveGrantRow | null>;
  readonly users: Map<string, OidcUserRow>;
  readonly liveSessions: Set<string>;
}

export const oidcRequestState = new AsyncLocalStorage<OidcRequestState>();

export function newOidcRequestState(
  meta: RequestMeta,
  sid: string | null = null,
): OidcRequestState {
  return {
    meta,
    sid,
    freshSession: false,
    checkedGrants: new Map(),
    users: new Map(),
    liveSessions: new Set(),
  };
}

/** The request's meta, or none outside a request (a hook the library calls on its own). */
export function requestMetaOfState(): RequestMeta {
  return oidcRequestState.getStore()?.meta ?? { ip: null, userAgent: null };
}
