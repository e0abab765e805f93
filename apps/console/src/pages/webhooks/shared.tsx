/** What the webhook screens share: query keys and the status badge. */
import { Badge, Text } from '@mantine/core';
import type { components } from '../../api/control-plane';

type Webhook = components['schemas']['WebhookResponse'];

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => ['webhooks', 'list'] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
};

export function WebhookStatus({ webhook }: { webhook: Pick<Webhook, 'enabled' | 'disabled_reason'> }) {
  if (webhook.enabled) return <Badge color="teal" variant="dot">Enabled</Badge>;
  return (
    <Badge color={webhook.disabled_reason === 'gone' ? 'red' : 'gray'} variant="dot">
      {webhook.disabled_reason === 'gone' ? 'Disabled (410 Gone)' : 'Disabled'}
    </Badge>
  );
}


/**
 * The size of a webhook list. These lists take no `page`/`limit` in the generated types (the
 * control plane's OpenAPI document declares no query parameters for them), so only the newest page is shown.
 */
export function ListTotal({ pagination, shown }: { pagination: components['schemas']['PaginationResponse']; shown: number }) {
  return (
    <Text size="sm" c="dimmed" mt="md">
      {pagination.total > shown ? `The newest ${shown} of ${pagination.total}` : `${pagination.total} in all`}
    </Text>
  );
}
