/**
 * The people and projects an audit page names, by email or name instead of their ids: each id of
 * the page is fetched once (the same query keys as the user and project screens, so either fills
 * the other's cache); an id the tenant no longer has shows as deleted.
 */
import { useQueries } from '@tanstack/react-query';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { ApiProblem } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';

type AuditEvent = components['schemas']['AuditEventResponse'];

export interface Named {
  /** What to show: the email or name, `deleted …` or the short id while it loads. */
  label: string;
  /** Whether the id still names something (a link to its page makes sense). */
  exists: boolean;
}

const STALE_MS = 5 * 60_000;

function short(id: string): string {
  return id.slice(0, 8);
}

/** The user ids an event names: its actor (a user or an admin) and its resource when that is a user. */
export function userIdsOf(event: AuditEvent): string[] {
  const ids: string[] = [];
  if (event.actor_id && (event.actor_type === 'user' || event.actor_type === 'admin'))
    ids.push(event.actor_id);
  if (event.resource_id && event.resource_type === 'user') ids.push(event.resource_id);
  return ids;
}

function name<T>(
  id: string,
  result: { data?: T; error: unknown; isPending: boolean } | undefined,
  label: (data: T) => string,
): Named {
  if (result?.data) return { label: label(result.data), exists: true };
  if (result?.error instanceof ApiProblem && result.error.status === 404)
    return { label: `deleted (${short(id)})`, exists: false };
  return { label: short(id), exists: !result?.error };
}

export function useAuditNames(
  events: readonly AuditEvent[],
  extra: { users?: string[]; projects?: string[] } = {},
) {
  const api = useAdminApi();
  const userIds = [...new Set([...events.flatMap(userIdsOf), ...(extra.users ?? [])])];
  const projectIds = [
    ...new Set(
      [
        ...events.flatMap((e) => [
          e.project_id,
          e.resource_type === 'project' ? e.resource_id : null,
        ]),
        ...(extra.projects ?? []),
      ].filter((id): id is string => !!id),
    ),
  ];
  const users = useQueries({
    queries: userIds.map((id) => ({
      queryKey: ['user', id],
      queryFn: () => unwrap(api.GET('/v1/admin/users/{id}', { params: { path: { id } } })),
      staleTime: STALE_MS,
      retry: false,
    })),
  });
  const projects = useQueries({
    queries: projectIds.map((id) => ({
      queryKey: ['project', id],
      queryFn: () => unwrap(api.GET('/v1/admin/projects/{id}', { params: { path: { id } } })),
      staleTime: STALE_MS,
      retry: false,
    })),
  });
  return {
    user: (id: string): Named => name(id, users[userIds.indexOf(id)], (u) => u.email),
    project: (id: string): Named => name(id, projects[projectIds.indexOf(id)], (p) => p.name),
  };
}
