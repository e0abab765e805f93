import type { RecordedEvent, RequestMeta } from '@gatehouse/identity';
import type { AdminContext } from '../auth/admin.guard';

/**
 * An audit + outbox event of an admin action: actor_type `admin`, actor_id the admin's user id,
 * the request's IP and user agent, in the admin's tenant.
 */
export function adminEvent(
  admin: AdminContext,
  meta: RequestMeta,
  e: Pick<RecordedEvent, 'projectId' | 'action' | 'resourceType' | 'resourceId' | 'data'>,
): RecordedEvent {
  return { tenantId: admin.tenantId, actorType: 'admin', actorId: admin.userId, meta, ...e };
}
