/**
 * Custom claims of a project (`settings.token_claims`, docs/api-contract.md §14): claim name →
 * template. A template is text with `{{path}}` holes whose paths start at one of three roots
 * (`user.metadata`, `org.metadata`, `user.email_verified`) and walk own properties of JSON only:
 * nothing runs, no prototype is reachable, and the rendered claims are capped in number and size.
 */

/** Claims Gatehouse or the JWT/OIDC registries own; a template may not name them. */
export const RESERVED_CLAIMS: ReadonlySet<string> = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'sid',
  'tid',
  'adm',
  'org',
  'act',
  'auth_time',
  'amr',
  'acr',
  'scope',
  'client_id',
  'azp',
  'nonce',
  'at_hash',
  'c_hash',
  's_hash',
  'typ',
  'cnf',
  'email',
  'email_verified',
  'preferred_username',
  'organizations',
]);
export const TOKEN_CLAIMS_MAX = 20;
/** The rendered custom claims, as JSON, stay within this many bytes; claims past it are left out. */
export const TOKEN_CLAIMS_RENDERED_MAX = 4096;
export const TOKEN_CLAIM_TEMPLATE_MAX = 512;
const CLAIM_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const HOLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);
const ROOTS = ['user.metadata', 'org.metadata', 'user.email_verified'] as const;

/** What templates may read: the user's metadata and email_verified, the active organization's metadata. */
export interface ClaimSources {
  user?: { metadata?: unknown; email_verified?: unknown } | null;
  org?: { metadata?: unknown } | null;
}

/** What is wrong with a path inside `{{…}}`, or null. */
function pathProblem(path: string): string | null {
  const root = ROOTS.find((r) => path === r || path.startsWith(`${r}.`));
  if (!root)
    return `"{{${path}}}" must start with user.metadata, org.metadata or user.email_verified`;
  if (root === 'user.email_verified' && path !== root)
    return `"{{${path}}}": user.email_verified has no members`;
  const rest = path.slice(root.length + 1);
  if (rest === '') return null;
  for (const segment of rest.split('.')) {
    if (!SEGMENT.test(segment))
      return `"{{${path}}}": each member name is 1-64 letters, digits, _ or -`;
    if (FORBIDDEN_SEGMENTS.has(segment)) return `"{{${path}}}" may not name ${segment}`;
  }
  return null;
}

/** Problems of a `token_claims` value as the admin API gives it (empty: valid). */
export function tokenClaimsProblems(value: unknown): string[] {
  if (value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    return ['must be an object of claim name to template'];
  const entries = Object.entries(value);
  const problems: string[] = [];
  if (entries.length > TOKEN_CLAIMS_MAX)
    problems.push(`must have at most ${TOKEN_CLAIMS_MAX} claims`);
  for (const [name, template] of entries) {
    if (!CLAIM_NAME.test(name) || FORBIDDEN_SEGMENTS.has(name))
      problems.push(
        `claim "${name}": a name is 1-64 letters, digits, _ . : or -, starting with a letter`,
      );
    else if (RESERVED_CLAIMS.has(name))
      problems.push(`claim "${name}" is a registered or Gatehouse claim`);
    if (typeof template !== 'string' || template.length === 0) {
      problems.push(`claim "${name}": the template must be a non-empty string`);
      continue;
    }
    if (template.length > TOKEN_CLAIM_TEMPLATE_MAX)
      problems.push(`claim "${name}": the template is longer than ${TOKEN_CLAIM_TEMPLATE_MAX}`);
    for (const [, path] of template.matchAll(HOLE)) {
      const problem = pathProblem(path);
      if (problem) problems.push(`claim "${name}": ${problem}`);
    }
    if (template.replace(HOLE, '').includes('{{'))
      problems.push(`claim "${name}": an unclosed or nested {{`);
  }
  return problems;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The project's templates when they are valid, else none. */
export function validTokenClaims(templates: unknown): Record<string, string> {
  return isRecord(templates) && tokenClaimsProblems(templates).length === 0
    ? (templates as Record<string, string>)
    : {};
}

/** The value at `path` in the sources, walking own properties only; undefined when missing or null. */
function lookup(sources: ClaimSources, path: string): unknown {
  if (pathProblem(path)) return undefined;
  if (path === 'user.email_verified') {
    const v = sources.user?.email_verified;
    return typeof v === 'boolean' ? v : undefined;
  }
  const [root, , ...rest] = path.split('.');
  let value: unknown = root === 'user' ? sources.user?.metadata : sources.org?.metadata;
  for (const segment of rest) {
    if (isRecord(value) && Object.hasOwn(value, segment)) value = value[segment];
    else if (Array.isArray(value) && /^\d+$/.test(segment) && Number(segment) < value.length)
      value = value[Number(segment)];
    else return undefined;
  }
  return value ?? undefined;
}

/**
 * The custom claims for a token: a template that is one whole `{{…}}` keeps the value's JSON type;
 * text with holes renders scalars as text (objects as JSON); a claim any of whose values is missing
 * is left out, as are claims past TOKEN_CLAIMS_RENDERED_MAX bytes. Invalid settings render nothing.
 */
export function renderTokenClaims(
  templates: unknown,
  sources: ClaimSources,
): Record<string, unknown> {
  const out: [string, unknown][] = [];
  let size = 2;
  for (const [name, template] of Object.entries(validTokenClaims(templates))) {
    const whole = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(template);
    let value: unknown;
    if (whole) value = lookup(sources, whole[1]);
    else {
      let missing = false;
      value = template.replace(HOLE, (_, path: string) => {
        const v = lookup(sources, path);
        if (v === undefined) missing = true;
        return typeof v === 'string' ? v : JSON.stringify(v ?? null);
      });
      if (missing) value = undefined;
    }
    if (value === undefined) continue;
    const bytes = Buffer.byteLength(JSON.stringify({ [name]: value })) - 1;
    if (size + bytes > TOKEN_CLAIMS_RENDERED_MAX) continue;
    size += bytes;
    out.push([name, value]);
  }
  return Object.fromEntries(out);
}

/**
 * SQL of the claim sources of session `s` in a statement that reads it, given the project's
 * settings expression: null when the project has no `token_claims` (the common case reads
 * nothing more), else `{templates, user: {metadata, email_verified}, org: {metadata} | null}` with
 * the organization only while the user is still its member.
 */
export const claimSourcesSql = (settings: string, s: string) =>
  `CASE WHEN jsonb_typeof(${settings} -> 'token_claims') = 'object' THEN json_build_object(
     'templates', ${settings} -> 'token_claims',
     'user', (SELECT json_build_object('metadata', cu.metadata, 'email_verified', cu.email_verified) FROM users cu WHERE cu.id = ${s}.user_id),
     'org', (SELECT json_build_object('metadata', co.metadata) FROM organizations co
               JOIN organization_members cm ON cm.organization_id = co.id AND cm.user_id = ${s}.user_id
              WHERE co.id = ${s}.active_organization_id)) END`;

/** What claimSourcesSql selects. */
export type ClaimSourcesRow = ({ templates: unknown } & ClaimSources) | null;

/** What claimSourcesSql selected, rendered (nothing when null). */
export function renderClaimSources(row: ClaimSourcesRow | undefined): Record<string, unknown> {
  return row ? renderTokenClaims(row.templates, row) : {};
}
