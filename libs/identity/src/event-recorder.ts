import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditEvent, OutboxEvent } from '@gatehouse/entities';

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

/**
 * Writes one audit event and one outbox event with the caller's EntityManager, so both commit or
 * roll back with the change that caused them (CONTRACT §6, §7).
 */
@Injectable()
export class EventRecorder {
  /** Returns the id of the outbox event (also the webhook event id, `webhook-id`). */
  async record(manager: EntityManager, e: RecordedEvent): Promise<string> {
    const data = e.data ?? {};
    await manager.save(manager.create(AuditEvent, {
      tenantId: e.tenantId,
      projectId: e.projectId,
      actorType: e.actorType,
      actorId: e.actorId,
      action: e.action,
      resourceType: e.resourceType,
      resourceId: e.resourceId,
      ipAddress: e.meta?.ip ?? null,
      userAgent: e.meta?.userAgent?.slice(0, 512) ?? null,
      metadata: data,
    }));
    const outbox = await manager.save(manager.create(OutboxEvent, {
      tenantId: e.tenantId,
      projectId: e.projectId,
      type: e.action,
      payload: data,
    }));
    return outbox.id;
  }
}
