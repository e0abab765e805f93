import type { RequestMeta } from '@gatehouse/identity';

/** The actor of an event the user did themselves (actor `user`), in their tenant and project, from this request. */
export function byUser(tenantId: string, projectId: string, userId: string, meta: RequestMeta) {
  return { tenantId, projectId, actorType: 'user' as const, actorId: userId, meta };
}
