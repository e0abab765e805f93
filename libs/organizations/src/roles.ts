/**
 * The rules of a project's roles and permissions (docs/api-contract.md §14), shared by the control
 * plane (which edits them) and the auth runtime (which puts a member's permissions in tokens).
 */

/** Granted to `admin` and assignable to any role; they gate the end-user organization API. */
export const SYSTEM_PERMISSIONS = [
  'org:members:read',
  'org:members:manage',
  'org:settings:manage',
  'org:delete',
] as const;

export const ADMIN_ROLE = 'admin';
export const MEMBER_ROLE = 'member';
/** Exist in every project without a row; cannot be deleted; `admin` holds every permission. */
export const BUILT_IN_ROLES = [ADMIN_ROLE, MEMBER_ROLE] as const;

export const BUILT_IN_ROLE_NAMES: Record<
  (typeof BUILT_IN_ROLES)[number],
  { name: string; description: string }
> = {
  admin: {
    name: 'Admin',
    description: 'Every permission of the project, including the system ones',
  },
  member: { name: 'Member', description: 'The permissions the project gives every member' },
};

export const ROLE_KEY = /^[a-z0-9_-]{1,40}$/;
/** `resource:action`, lower case; the system permissions' `org:` namespace is reserved. */
export const PERMISSION_KEY = /^[a-z0-9_-]+:[a-z0-9_.-]+$/;
export const PERMISSION_KEY_MAX = 64;
/** Caps that keep a token's `permissions` and the console's pickers bounded. */
export const MAX_PROJECT_PERMISSIONS = 500;
export const MAX_PROJECT_ROLES = 100;
export const MAX_ROLE_PERMISSIONS = 100;

export const isBuiltInRole = (key: string): key is (typeof BUILT_IN_ROLES)[number] =>
  (BUILT_IN_ROLES as readonly string[]).includes(key);

export const isSystemPermission = (key: string): boolean =>
  (SYSTEM_PERMISSIONS as readonly string[]).includes(key);

/** What is wrong with a permission key a project would define, or null. */
export function permissionKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  if (key.length > PERMISSION_KEY_MAX) return `must be at most ${PERMISSION_KEY_MAX} characters`;
  if (!PERMISSION_KEY.test(key))
    return 'must be resource:action in lower case (letters, digits, _ and -, and . in the action)';
  if (key.startsWith('org:')) return 'the org: namespace is reserved for the system permissions';
  return null;
}

/** What is wrong with a role's `permissions` list (shape only; whether each exists is the catalog's), or null. */
export function permissionListProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'must be an array of permission keys';
  if (value.length > MAX_ROLE_PERMISSIONS) return `must have at most ${MAX_ROLE_PERMISSIONS} items`;
  const seen = new Set<string>();
  for (const [i, key] of value.entries()) {
    if (typeof key !== 'string') return `item ${i + 1} must be a string`;
    if (!isSystemPermission(key) && permissionKeyProblem(key) !== null)
      return `item ${i + 1}: ${JSON.stringify(key.slice(0, 80))} is not a permission key`;
    if (seen.has(key)) return `item ${i + 1}: ${key} is listed twice`;
    seen.add(key);
  }
  return null;
}

/** The permissions a role grants: `admin` every system and catalog permission, another role its own list. */
export function grantedPermissions(
  roleKey: string,
  stored: readonly string[],
  catalog: readonly string[],
): string[] {
  if (roleKey === ADMIN_ROLE) return [...SYSTEM_PERMISSIONS, ...[...catalog].sort()];
  return sortPermissions(stored);
}

/** System permissions first (in their order), then the catalog's by key. */
export function sortPermissions(keys: readonly string[]): string[] {
  const system = SYSTEM_PERMISSIONS.filter((k) => keys.includes(k));
  const own = keys.filter((k) => !isSystemPermission(k)).sort();
  return [...system, ...own];
}

/** The `org` claim of an access token: the active organization and what the member may do there. */
export interface OrganizationClaim {
  id: string;
  slug: string;
  role: string;
  permissions: string[];
}

/**
 * SQL of the permissions member row `m` of organization `o` holds (a text[]): for `admin` the
 * system permissions and the project's whole catalog, else the stored list of the role's row
 * (empty without one). Stored lists are already in claim order (system first, then by key).
 */
export const memberPermissionsSql = (m: string, o: string) =>
  `CASE WHEN ${m}.role = '${ADMIN_ROLE}'
        THEN ARRAY[${SYSTEM_PERMISSIONS.map((p) => `'${p}'`).join(', ')}]::text[]
             || ARRAY(SELECT pp.key FROM project_permissions pp WHERE pp.project_id = ${o}.project_id ORDER BY pp.key)
        ELSE COALESCE((SELECT pr.permissions FROM project_roles pr WHERE pr.project_id = ${o}.project_id AND pr.key = ${m}.role), '{}'::text[]) END`;

/**
 * SQL of the `org` claim of user `userId` in organization `organizationId` (both SQL expressions)
 * as JSON (`{id, slug, role, permissions}`, with `name` when asked), or null when the user is not
 * (or no longer) its member: a membership ended reaches the next token at once.
 */
export const organizationClaimSql = (
  userId: string,
  organizationId: string,
  opts: { withName?: boolean } = {},
) =>
  `(SELECT json_build_object('id', o.id, ${opts.withName ? `'name', o.name, ` : ''}'slug', o.slug, 'role', m.role,
                             'permissions', ${memberPermissionsSql('m', 'o')})
      FROM organizations o JOIN organization_members m ON m.organization_id = o.id AND m.user_id = ${userId}
     WHERE o.id = ${organizationId})`;

/** The `org` claim of session `s`'s active organization (organizationClaimSql), in a statement of the sessions table. */
export const activeOrganizationJsonSql = (s: string, opts: { withName?: boolean } = {}) =>
  organizationClaimSql(`${s}.user_id`, `${s}.active_organization_id`, opts);
