import type { AuditEventRow } from './audit-events.repository';

/** Audit event (spec + CONTRACT §10); timestamps in UTC. */
export function toAuditEventResponse(e: AuditEventRow) {
  return {
    id: e.id,
    actor_type: e.actor_type,
    actor_id: e.actor_id,
    action: e.action,
    resource_type: e.resource_type,
    resource_id: e.resource_id,
    project_id: e.project_id,
    ip_address: e.ip_address,
    user_agent: e.user_agent,
    created_at: new Date(e.created_at).toISOString(),
  };
}
