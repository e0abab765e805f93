import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryPrepared, type PreparedStatement } from '@gatehouse/entities';

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

export interface RecordedEvent {
  tenantId: string;
  projectId: string | null;
  actorType: 'user' | 'admin' | 'system' | 'api_key';
  actorId: string | null;
  /** `<resource>.<verb>`, also the webhook event type. */
  action: string;
  resourceType: string;
  resourceId: string | null;
  meta?: RequestMeta;
  /** Webhook payload `data`; also kept as audit metadata. Never secrets. */
  data?: Record<string, unknown>;
}

/** $1 tenant, $2 project, $3 actor type, $4 actor id, $5 action, $6 resource type, $7 resource id, $8 ip, $9 user agent, $10 data. */
const RECORD_STATEMENT: PreparedStatement = {
  name: 'events_record',
  text: `WITH audit AS (
           INSERT INTO audit_events (tenant_id, project_id, actor_type, actor_id, action, resource_type, resource_id, ip_address, user_agent, metadata)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         )
         INSERT INTO outbox_events (tenant_id, project_id, type, payload) VALUES ($1, $2, $5, $10)
         RETURNING id`,
};

/**
 * Writes one audit event and one outbox event in one statement with the caller's EntityManager,
 * so both commit or roll back with the change that caused them (docs/api-contract.md §6, §7).
 */
@Injectable()
export class EventRecorder {
  /** Returns the id of the outbox event (also the webhook event id, `webhook-id`). */
  async record(manager: EntityManager, e: RecordedEvent): Promise<string> {
    const data = JSON.stringify(e.data ?? {});
    const meta = [e.meta?.ip ?? null, e.meta?.userAgent?.slice(0, 512) ?? null];
    const rows = await queryPrepared<{ id: string }>(manager, RECORD_STATEMENT, [
      e.tenantId,
      e.projectId,
      e.actorType,
      e.actorId,
      e.action,
      e.resourceType,
      e.resourceId,
      ...meta,
      data,
    ]);
    return rows[0].id;
  }

  /**
   * One `session.revoked` per ended session, so subscribers see every revocation, a bulk one (a
   * user disabled, deleted or resetting their password) as a single sign-out. Called by
   * SessionRevocation, the one path that ends sessions.
   */
  async sessionsRevoked(
    manager: EntityManager,
    by: Pick<RecordedEvent, 'tenantId' | 'projectId' | 'actorType' | 'actorId' | 'meta'>,
    userId: string,
    sessionIds: string[],
    reason: string,
  ): Promise<void> {
    for (const id of sessionIds) {
      await this.record(manager, {
        ...by,
        action: 'session.revoked',
        resourceType: 'session',
        resourceId: id,
        data: { session: { id, user_id: userId }, reason },
      });
    }
  }
}
