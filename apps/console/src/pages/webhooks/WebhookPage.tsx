/** One webhook: its settings (edit, enable or disable, delete), a test event, its secret's rotation, and its delivery attempts with redelivery. */
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { formatDate } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { QueryState } from '../../ui/QueryState';
import { WebhookForm, type WebhookValues } from './WebhookForm';
import { Deliveries } from './Deliveries';
import { RotateSecret } from './RotateSecret';
import { UrlText } from '../../ui/UrlText';
import { webhookKeys, WebhookStatus } from './shared';

type Webhook = components['schemas']['WebhookResponse'];

/** How long the deliveries are polled after a test or a redelivery is queued, and how often. */
const WATCH_MS = 20_000;

export default function WebhookPage() {
  const { id = '' } = useParams();
  const api = useAdminApi();
  const webhook = useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: () => unwrap(api.GET('/v1/admin/webhooks/{id}', { params: { path: { id } } })),
  });
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
    mutationFn: (values: WebhookValues) =>
      unwrap(
        api.PATCH('/v1/admin/webhooks/{id}', {
          params: { path: { id } },
          body: {
            url: values.url.trim(),
            events: values.events,
            description: values.description.trim() || null,
          },
        }),
      ),
    onSuccess: (next) => {
      changed(next);
      setSaved(true);
    },
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      unwrap(api.PATCH('/v1/admin/webhooks/{id}', { params: { path: { id } }, body: { enabled } })),
    onSuccess: changed,
  });
  const test = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v1/admin/webhooks/{id}/test', { params: { path: { id } }, body: {} })),
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
            <Code fz="sm" data-testid="webhook-url">
              <UrlText value={webhook.url} />
            </Code>
            <WebhookStatus webhook={webhook} />
          </Group>
          <Text size="xs" c="dimmed">
            Created {formatDate(webhook.created_at)} · updated {formatDate(webhook.updated_at)}
          </Text>
          {webhook.disabled_reason === 'gone' && (
            <Alert color="red" variant="light" title="Disabled by the receiver">
              The endpoint answered 410 Gone, so no more events are sent. Enable it again once the
              endpoint is back.
            </Alert>
          )}
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Switch
              label={
                webhook.enabled
                  ? 'Enabled: events are delivered'
                  : 'Disabled: no events are delivered'
              }
              checked={webhook.enabled}
              disabled={toggle.isPending}
              onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            />
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                loading={test.isPending}
                onClick={() => test.mutate()}
              >
                Send test event
              </Button>
              <RotateSecret webhookId={id} />
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
          initial={{
            url: webhook.url,
            events: webhook.events,
            description: webhook.description ?? '',
            enabled: webhook.enabled,
          }}
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
