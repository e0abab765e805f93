/** What the webhook screens share: query keys and the status badge. */
import { Badge } from '@mantine/core';
import type { components } from '../../api/control-plane';

type Webhook = components['schemas']['WebhookResponse'];

export const webhookKeys = {
  all: ['webhooks'] as const,
  /** Without a page: every page (for invalidation). */
  list: (page?: number): readonly unknown[] =>
    page === undefined ? ['webhooks', 'list'] : ['webhooks', 'list', page],
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  deliveries: (id: string, page?: number): readonly unknown[] =>
    page === undefined ? ['webhooks', 'deliveries', id] : ['webhooks', 'deliveries', id, page],
};

export function WebhookStatus({
  webhook,
}: {
  webhook: Pick<Webhook, 'enabled' | 'disabled_reason'>;
}) {
  if (webhook.enabled)
    return (
      <Badge color="teal" variant="dot">
        Enabled
      </Badge>
    );
  return (
    <Badge color={webhook.disabled_reason === 'gone' ? 'red' : 'gray'} variant="dot">
      {webhook.disabled_reason === 'gone' ? 'Disabled (410 Gone)' : 'Disabled'}
    </Badge>
  );
}
