/**
 * The one spelling of organization roles on every screen (member tables and pickers,
 * invitations, a user's organizations, the project's Roles tab): a role's name among the
 * project's roles (docs/api-contract.md §14); without them, the built-in keys as an admin reads
 * them ("Admin", "Member") and any other role as its key.
 */
const BUILT_IN_NAMES: Record<string, string> = {
  admin: 'Admin',
  member: 'Member',
};

export function roleLabel(key: string, roles?: readonly { key: string; name: string }[]): string {
  return roles?.find((r) => r.key === key)?.name ?? BUILT_IN_NAMES[key] ?? key;
}
