import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestMeta } from '@gatehouse/identity';

/** The user a grant or session check read, kept for `findAccount` in the same request. */
export interface OidcUserRow {
  id: string;
  tenant_id: string;
  email: string;
  email_verified: boolean;
  username: string | null;
}

/**
 * What one request to a project's provider learned on the way: the Gatehouse session behind the
 * provider's session (set when the session is read, or by the interaction that signed the user
 * in), the grants already checked and the users they belong to. oidc-provider's hooks (adapter,
 * findAccount, loadExistingGrant) read it; it lives as long as the request.
 */
export interface OidcRequestState {
  projectId: string;
  tenantId: string;
  meta: RequestMeta;
  /** The Gatehouse session signing the user in to the provider, once known. */
  sid: string | null;
  checkedGrants: Map<string, OidcUserRow | null>;
  /** The request confirms an RP-initiated logout: ending the provider's session ends the Gatehouse one. */
  endingSession: boolean;
  /** A request the provider itself answers (not the interaction API): interactions with a result need the completion value. */
  viaProvider: boolean;
  /** The `completion` value the browser presented (the resume URL's query), if any. */
  completion: string | null;
  /** The completed sign-in is another account than the browser's provider session: start a new provider session. */
  freshSession: boolean;
  users: Map<string, OidcUserRow>;
  /** Gatehouse sessions this request already found live (by a grant check), so the provider session's check needs no query. */
  liveSessions: Set<string>;
}

export const oidcRequestState = new AsyncLocalStorage<OidcRequestState>();

export function newOidcRequestState(project: { id: string; tenantId: string }, meta: RequestMeta, sid: string | null = null): OidcRequestState {
  return { projectId: project.id, tenantId: project.tenantId, meta, sid, checkedGrants: new Map(), users: new Map(), liveSessions: new Set(), endingSession: false, viaProvider: false, completion: null, freshSession: false };
}
