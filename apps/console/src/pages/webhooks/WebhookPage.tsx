/** One webhook: its settings (edit, enable or disable, delete), a test event, and its delivery attempts with redelivery. */
import { Alert, Anchor, Badge, Button, Code, Group, Paper, Stack, Switch, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type RefObject } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { formatDate } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { ProblemAlert } from '../../ui/ProblemAlert';
import { QueryState } from '../../ui/QueryState';
import { WebhookForm, type WebhookValues } from './WebhookForm';
import { Pager } from '../../ui/Pager';
import { webhookKeys, WebhookStatus } from './shared';

type Webhook = components['schemas']['WebhookResponse'];
type Delivery = components['schemas']['WebhookDeliveryResponse'];

/** How long the deliveries are polled after a test or a redelivery is queued, and how often. */
const WATCH_MS = 20_000;
const POLL_MS = 1_500;
/** A pending attempt due within this time keeps the list polling (a retry hours away does not). */
const DUE_SOON_MS = 60_000;

const STATUS_COLOR: Record<Delivery['status'], string> = { succeeded: 'teal', failed: 'red', pending: 'blue' };

export default function WebhookPage() {
  const { id = '' } = useParams();
  const api = useAdminApi();
  const webhook = useQuery({ queryKey: webhookKeys.detail(id), queryFn: () => unwrap(api.GET('/v1/admin/webhooks/{id}', { params: { path: { id } } })) });
  return (
    <>
      <PageTitle title="Webhook" />
      <Anchor component={Link} to="/webhooks" size="sm" mb="md" display="inline-block">
        ← All webhooks
      </Anchor>
      <QueryState query={webhook} label="webhook">
        {(data) => <WebhookDetail webhook={data} />}
      </QueryState>
    </>
  );
}

function WebhookDetail({ webhook }: { webhook: Webhook }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = webhook.id;
  const watchUntil = useRef(0);
  const [queued, setQueued] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const changed = (next: Webhook) => {
    queryClient.setQueryData(webhookKeys.detail(id), next);
    void queryClient.invalidateQueries({ queryKey: webhookKeys.list() });
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
  };
  const watchDeliveries = () => {
    watchUntil.current = Date.now() + WATCH_MS;
    void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) });
  };

  const update = useMutation({
    mutationFn: (values: WebhookValues) => unwrap(api.PATCH('/v1/admin/webhooks/{id}', { params: { path: { id } }, body: { url: values.url.trim(), events: values.events, description: values.description.trim() || null } })),
    onSuccess: (next) => {
      changed(next);
      setSaved(true);
    },
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PATCH('/v1/admin/webhooks/{id}', { params: { path: { id } }, body: { enabled } })),
    onSuccess: changed,
  });
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/admin/webhooks/{id}/test', { params: { path: { id } }, body: {} })),
    onSuccess: (answer) => {
      setQueued(answer.event_id);
      watchDeliveries();
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
  const remove = async () => {
    await unwrap(api.DELETE('/v1/admin/webhooks/{id}', { params: { path: { id } } }));
    queryClient.removeQueries({ queryKey: webhookKeys.detail(id) });
    queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) });
    void queryClient.invalidateQueries({ queryKey: webhookKeys.list() });
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
    await navigate('/webhooks');
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Code fz="sm" style={{ wordBreak: 'break-all' }} data-testid="webhook-url">
              {webhook.url}
            </Code>
            <WebhookStatus webhook={webhook} />
          </Group>
          <Text size="xs" c="dimmed">
            Created {formatDate(webhook.created_at)} · updated {formatDate(webhook.updated_at)}
          </Text>
          {webhook.disabled_reason === 'gone' && (
            <Alert color="red" variant="light" title="Disabled by the receiver">
              The endpoint answered 410 Gone, so no more events are sent. Enable it again once the endpoint is back.
            </Alert>
          )}
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Switch
              label={webhook.enabled ? 'Enabled: events are delivered' : 'Disabled: no events are delivered'}
              checked={webhook.enabled}
              disabled={toggle.isPending}
              onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            />
            <Group gap="xs">
              <Button variant="default" size="xs" loading={test.isPending} onClick={() => test.mutate()}>
                Send test event
              </Button>
              <ConfirmButton
                label="Delete webhook"
                title="Delete this webhook?"
                message={`Events stop going to ${webhook.url} at once, and its delivery records are deleted too. This cannot be undone.`}
                confirmLabel="Delete webhook"
                onConfirm={remove}
              />
            </Group>
          </Group>
          <ProblemAlert error={toggle.error} title="Could not change whether it is enabled" />
          <ProblemAlert error={test.error} title="Could not send a test event" />
          {queued && (
            <Text size="sm" role="status">
              Test event queued (<Code>{queued}</Code>); its delivery appears below.
            </Text>
          )}
        </Stack>
      </Paper>

      <Paper withBorder p="md" component="section" aria-labelledby="webhook-settings">
        <Title order={2} size="h4" mb="sm" id="webhook-settings">
          Settings
        </Title>
        <WebhookForm
          key={webhook.updated_at}
          initial={{ url: webhook.url, events: webhook.events, description: webhook.description ?? '', enabled: webhook.enabled }}
          submitLabel="Save changes"
          busy={update.isPending}
          error={update.error}
          onSubmit={(values) => {
            setSaved(false);
            update.mutate(values);
          }}
        />
        {saved && !update.isPending && (
          <Text size="sm" c="teal.8" role="status" mt="xs">
            Saved.
          </Text>
        )}
      </Paper>

      <Deliveries webhookId={id} watchUntil={watchUntil} onQueued={watchDeliveries} />
    </Stack>
  );
}

function Deliveries({ webhookId, watchUntil, onQueued }: { webhookId: string; watchUntil: RefObject<number>; onQueued: () => void }) {
  const api = useAdminApi();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: webhookKeys.deliveries(webhookId, page),
    queryFn: () => unwrap(api.GET('/v1/admin/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { page, limit: 20 } } })),
    refetchInterval: (query) => {
      const now = Date.now();
      const dueSoon = query.state.data?.deliveries.some((d) => d.status === 'pending' && (!d.next_attempt_at || Date.parse(d.next_attempt_at) - now < DUE_SOON_MS));
      return dueSoon || now < watchUntil.current ? POLL_MS : false;
    },
  });
  const redeliver = useMutation({
    mutationFn: (delivery: Delivery) => unwrap(api.POST('/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: webhookId, deliveryId: delivery.id } }, body: {} })),
    onSuccess: onQueued,
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="webhook-deliveries">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="webhook-deliveries">
          Deliveries
        </Title>
        <Button variant="default" size="xs" loading={deliveries.isFetching && !deliveries.isPending} onClick={() => void deliveries.refetch()}>
          Refresh
        </Button>
      </Group>
      <ProblemAlert error={redeliver.error} title="Could not redeliver" />
      <QueryState query={deliveries} label="deliveries" isEmpty={(d) => d.deliveries.length === 0} empty="No deliveries yet. Send a test event to try the endpoint.">
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={880} type="native">
              <Table striped verticalSpacing="xs" data-testid="deliveries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Event</Table.Th>
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
                <Table.Tbody>
                  {data.deliveries.map((d) => (
                    <Table.Tr key={d.id} data-status={d.status} data-event-type={d.event_type} data-attempt={d.attempt}>
                      <Table.Td>
                        <Text size="sm">{d.event_type}</Text>
                        <Text size="xs" c="dimmed" title={`webhook-id ${d.event_id}`}>
                          {d.event_id.slice(0, 8)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[d.status]} variant="dot">
                          {d.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{d.attempt}</Table.Td>
                      <Table.Td>{d.response_status ?? '—'}</Table.Td>
                      <Table.Td>{d.duration_ms === null ? '—' : `${d.duration_ms} ms`}</Table.Td>
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
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </Paper>
  );
}
