/**
 * What Gatehouse adds to an interaction's result (beside oidc-provider's `login`, `consent` and
 * `error`): the Gatehouse session that completed it, and the SHA-256 of the completion value only
 * the completer was given (the resume must present it).
 */
export interface GatehouseCompletion {
  sid: string | null;
  hash: string;
  /** The sign-in is another account than the browser's provider session had: the resume starts a new provider session. */
  fresh?: boolean;
}

export function completionOf(result: unknown): GatehouseCompletion | null {
  const g = (result as { gatehouse?: unknown } | undefined)?.gatehouse as Partial<GatehouseCompletion> | undefined;
  return g && typeof g.hash === 'string' ? { sid: typeof g.sid === 'string' ? g.sid : null, hash: g.hash, ...(g.fresh === true ? { fresh: true } : {}) } : null;
}
