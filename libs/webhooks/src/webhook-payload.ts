/** The outbox row an event is built from (docs/api-contract.md §7). */
export interface WebhookEventSource {
  id: string;
  type: string;
  tenantId: string;
  projectId: string | null;
  createdAt: Date;
  payload: Record<string, unknown>;
}

/**
 * The JSON body of a delivery: `{"id","type","timestamp","tenant_id","project_id","data"}`. Built
 * only from the stored event, so every attempt of an event sends the same bytes.
 */
export function webhookBody(event: WebhookEventSource): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    tenant_id: event.tenantId,
    project_id: event.projectId,
    data: event.payload,
  });
}
