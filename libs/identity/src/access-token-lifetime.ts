/**
 * The lifetime of access tokens, in seconds: what a project's `access_token_ttl_seconds` and an API
 * resource's may be (the settings' validation, the OpenAPI document and the runtime's reading of a
 * stored value all use these bounds), and the default when none is set.
 */
export const MIN_ACCESS_TOKEN_TTL_SECONDS = 60;
/** The longest access-token lifetime a project may configure; a retiring key verifies this long. */
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 86_400;
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 900;

/** A project's `access_token_ttl_seconds` setting when it is a valid one, else the default. */
export function accessTokenTtl(v: unknown): number {
  return typeof v === 'number' &&
    v >= MIN_ACCESS_TOKEN_TTL_SECONDS &&
    v <= MAX_ACCESS_TOKEN_TTL_SECONDS
    ? v
    : DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
}
