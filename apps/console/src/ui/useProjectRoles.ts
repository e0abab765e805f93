import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../api/clients';
import type { components } from '../api/control-plane';
import { useAdminApi } from '../auth/AuthContext';
import { roleLabel } from './role-names';

type Role = components['schemas']['RoleResponse'];

/** The query key of a project's roles, to invalidate when the Roles tab changes them. */
export const projectRolesKey = (projectId: string) => ['roles', projectId] as const;

/**
 * Every role of a project (admin and member first, then its own by key; at most 102, read 100 a
 * page), for the pickers that give a member a role and the tables that name it. `options` are the
 * pickers' `{value: key, label: name}`; `label(key)` names a role (roleLabel) with the project's
 * names once they are loaded. A role not in the list (a member's role read before a change) is
 * kept as an option, so a select never loses its value.
 */
export function useProjectRoles(projectId: string) {
  const api = useAdminApi();
  const query = useQuery({
    queryKey: projectRolesKey(projectId),
    queryFn: async () => {
      const roles: Role[] = [];
      for (let page = 1; ; page++) {
        const data = await unwrap(
          api.GET('/v1/admin/projects/{id}/roles', {
            params: { path: { id: projectId }, query: { page, limit: 100 } },
          }),
        );
        roles.push(...data.roles);
        if (roles.length >= data.pagination.total || data.roles.length === 0) return roles;
      }
    },
  });
  const roles = query.data;
  const label = (key: string) => roleLabel(key, roles);
  const options = (current?: string) => {
    const keys = (roles ?? []).map((r) => r.key);
    const all = roles ? keys : ['member', 'admin'];
    const withCurrent = current && !all.includes(current) ? [...all, current] : all;
    return withCurrent.map((key) => ({ value: key, label: label(key) }));
  };
  return { query, roles, label, options };
}
