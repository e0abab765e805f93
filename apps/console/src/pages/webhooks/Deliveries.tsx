/**
 * A webhook's delivery attempts, grouped under the event they sent (newest event first, its
 * attempts newest first), filtered by status (`?status=`, kept in the URL); each attempt expands
 * to what was sent (URL, headers with the signature, body) and what came back, or why nothing did.
 */
import {
  Badge,
  Button,
  Code,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Fragment, useState, type RefObject } from 'react';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { formatDate } from '../../ui/format';
import { Pager } from '../../ui/Pager';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { QueryState } from '../../ui/QueryState';
import { UrlText } from '../../ui/UrlText';
import { useListParams } from '../../ui/useListParams';
import { deliveryErrorText } from './delivery-error';
import { webhookKeys } from './shared';

type Delivery = components['schemas']['WebhookDeliveryResponse'];
type Status = Delivery['status'];

/** How often the list is polled while an attempt is due soon or an action was just queued. */
const POLL_MS = 1_500;
/** A pending attempt due within this time keeps the list polling (a retry hours away does not). */
const DUE_SOON_MS = 60_000;
const COLUMNS = 8;
const STATUS_COLOR: Record<Status, string> = { succeeded: 'teal', failed: 'red', pending: 'blue' };
const STATUSES: readonly Status[] = ['failed', 'succeeded', 'pending'];

/** The attempts of a page grouped by event, in the order their newest attempt came. */
function byEvent(
  deliveries: readonly Delivery[],
): { eventId: string; eventType: string; attempts: Delivery[] }[] {
  const groups = new Map<string, { eventId: string; eventType: string; attempts: Delivery[] }>();
  for (const d of deliveries) {
    const group = groups.get(d.event_id) ?? {
      eventId: d.event_id,
      eventType: d.event_type,
      attempts: [],
    };
    group.attempts.push(d);
    groups.set(d.event_id, group);
  }
  return [...groups.values()];
}

export function Deliveries({
  webhookId,
  watchUntil,
  onQueued,
}: {
  webhookId: string;
  watchUntil: RefObject<number>;
  onQueued: () => void;
}) {
  const api = useAdminApi();
  const { page, values, setFilter, setPage } = useListParams(['status'] as const);
  const status = STATUSES.find((s) => s === values.status);
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useQuery({
    queryKey: [...webhookKeys.deliveries(webhookId, page), status ?? 'all'],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/webhooks/{id}/deliveries', {
          params: {
            path: { id: webhookId },
            query: { page, limit: 20, ...(status && { status }) },
          },
        }),
      ),
    refetchInterval: (query) => {
      const now = Date.now();
      const dueSoon = query.state.data?.deliveries.some(
        (d) =>
          d.status === 'pending' &&
          (!d.next_attempt_at || Date.parse(d.next_attempt_at) - now < DUE_SOON_MS),
      );
      return dueSoon || now < watchUntil.current ? POLL_MS : false;
    },
  });
  const redeliver = useMutation({
    mutationFn: (delivery: Delivery) =>
      unwrap(
        api.POST('/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: webhookId, deliveryId: delivery.id } },
          body: {},
        }),
      ),
    onSuccess: onQueued,
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="webhook-deliveries">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="webhook-deliveries">
          Deliveries
        </Title>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label="Show deliveries"
            size="xs"
            value={status ?? 'all'}
            onChange={(v) => setFilter('status', v === 'all' ? null : v)}
            data={[
              { value: 'all', label: 'All' },
              { value: 'failed', label: 'Failed' },
              { value: 'succeeded', label: 'Succeeded' },
              { value: 'pending', label: 'Pending' },
            ]}
          />
          <Button
            variant="default"
            size="xs"
            loading={deliveries.isFetching && !deliveries.isPending}
            onClick={() => void deliveries.refetch()}
          >
            Refresh
          </Button>
        </Group>
      </Group>
      <ProblemAlert error={redeliver.error} title="Could not redeliver" />
      <QueryState
        query={deliveries}
        label="deliveries"
        list
        isEmpty={(d) => d.deliveries.length === 0}
        empty={
          status
            ? `No ${status} deliveries.`
            : 'No deliveries yet. Send a test event to try the endpoint.'
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={880} type="native">
              <Table verticalSpacing="xs" data-testid="deliveries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">
                      <VisuallyHidden>Details</VisuallyHidden>
                    </Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                    <Table.Th scope="col">Attempt</Table.Th>
                    <Table.Th scope="col">Response</Table.Th>
                    <Table.Th scope="col">Duration</Table.Th>
                    <Table.Th scope="col">Next attempt</Table.Th>
                    <Table.Th scope="col">Created</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>Action</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                {byEvent(data.deliveries).map((group) => (
                  <Table.Tbody key={group.eventId} data-event-group={group.eventId}>
                    <Table.Tr bg="var(--mantine-color-default-hover)">
                      <Table.Th scope="colgroup" colSpan={COLUMNS}>
                        <Group gap="xs" wrap="wrap">
                          <Text size="sm" fw={600} component="span">
                            {group.eventType}
                          </Text>
                          <Text size="xs" c="dimmed" component="span">
                            event <Code fz="xs">{group.eventId}</Code> ·{' '}
                            {group.attempts.length === 1
                              ? '1 attempt'
                              : `${group.attempts.length} attempts`}{' '}
                            on this page
                          </Text>
                        </Group>
                      </Table.Th>
                    </Table.Tr>
                    {group.attempts.map((d) => {
                      const expanded = open === d.id;
                      const panelId = `delivery-${d.id}`;
                      return (
                        <Fragment key={d.id}>
                          <Table.Tr
                            data-status={d.status}
                            data-event-type={d.event_type}
                            data-attempt={d.attempt}
                            data-delivery-id={d.id}
                          >
                            <Table.Td>
                              <Button
                                size="compact-xs"
                                variant="default"
                                aria-expanded={expanded}
                                aria-controls={expanded ? panelId : undefined}
                                aria-label={`${expanded ? 'Hide' : 'Show'} attempt ${d.attempt} of ${d.event_type}`}
                                onClick={() => setOpen(expanded ? null : d.id)}
                              >
                                {expanded ? '▾ Hide' : '▸ Show'}
                              </Button>
                            </Table.Td>
                            <Table.Td>
                              <Badge color={STATUS_COLOR[d.status]} variant="dot">
                                {d.status}
                              </Badge>
                            </Table.Td>
                            <Table.Td>{d.attempt}</Table.Td>
                            <Table.Td>{d.response_status ?? '—'}</Table.Td>
                            <Table.Td>
                              {d.duration_ms === null ? '—' : `${d.duration_ms} ms`}
                            </Table.Td>
                            <Table.Td>{formatDate(d.next_attempt_at)}</Table.Td>
                            <Table.Td>{formatDate(d.created_at)}</Table.Td>
                            <Table.Td>
                              <Button
                                size="compact-xs"
                                variant="default"
                                aria-label={`Redeliver ${d.event_type}, attempt ${d.attempt}`}
                                loading={redeliver.isPending && redeliver.variables?.id === d.id}
                                onClick={() => redeliver.mutate(d)}
                              >
                                Redeliver
                              </Button>
                            </Table.Td>
                          </Table.Tr>
                          {expanded && (
                            <Table.Tr>
                              <Table.Td colSpan={COLUMNS} id={panelId} p="md">
                                <AttemptDetail webhookId={webhookId} delivery={d} />
                              </Table.Td>
                            </Table.Tr>
                          )}
                        </Fragment>
                      );
                    })}
                  </Table.Tbody>
                ))}
              </Table>
            </Table.ScrollContainer>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </Paper>
  );
}

function Headers({ headers, label }: { headers: Record<string, string>; label: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <Text size="sm">No headers.</Text>;
  return (
    <Table.ScrollContainer minWidth={420} type="native">
      <Table verticalSpacing={2} withRowBorders={false} aria-label={label}>
        <Table.Tbody>
          {entries.map(([name, value]) => (
            <Table.Tr key={name}>
              <Table.Th scope="row" fw={500} w={220} style={{ verticalAlign: 'top' }}>
                <Code fz="xs">{name}</Code>
              </Table.Th>
              <Table.Td>
                <Code fz="xs" style={{ wordBreak: 'break-all' }}>
                  {value}
                </Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A body as text, pretty-printed when it is JSON. */
function Body({ text, label }: { text: string; label: string }) {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  return (
    <Code
      block
      tabIndex={0}
      aria-label={label}
      mah={320}
      style={{ overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
    >
      {shown || '(empty)'}
    </Code>
  );
}

function AttemptDetail({ webhookId, delivery }: { webhookId: string; delivery: Delivery }) {
  const api = useAdminApi();
  const detail = useQuery({
    queryKey: ['webhooks', 'delivery', webhookId, delivery.id, delivery.status],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/webhooks/{id}/deliveries/{deliveryId}', {
          params: { path: { id: webhookId, deliveryId: delivery.id } },
        }),
      ),
  });
  return (
    <QueryState query={detail} label="the attempt">
      {(d) => {
        const why = deliveryErrorText(d);
        return (
          <Stack gap="md" data-testid="delivery-detail">
            {d.status === 'pending' && (
              <Text size="sm">
                Not attempted yet{d.next_attempt_at ? `: due ${formatDate(d.next_attempt_at)}` : ''}
                .
              </Text>
            )}
            {why && (
              <Text
                size="sm"
                fw={500}
                role="note"
                data-testid="delivery-error"
                style={{
                  color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))',
                }}
              >
                Failed: {why}
              </Text>
            )}
            <Stack gap={4}>
              <Title order={3} size="h6">
                Request
              </Title>
              <Text size="sm">
                <Code>
                  POST <UrlText value={d.request.url} />
                </Code>
              </Text>
              <Headers headers={d.request.headers} label="Request headers" />
              {d.request.body === null ? (
                <Text size="sm">The body is no longer kept (the event left the outbox).</Text>
              ) : (
                <Body text={d.request.body} label="Request body" />
              )}
            </Stack>
            <Stack gap={4}>
              <Title order={3} size="h6">
                Response
              </Title>
              {d.response ? (
                <>
                  <Text size="sm">HTTP {d.response.status}</Text>
                  <Headers headers={d.response.headers} label="Response headers" />
                  <Body text={d.response.body} label="Response body (the first 4 KiB)" />
                </>
              ) : (
                <Text size="sm">
                  {d.status === 'pending' ? 'None yet.' : 'No answer came back.'}
                </Text>
              )}
            </Stack>
          </Stack>
        );
      }}
    </QueryState>
  );
}
