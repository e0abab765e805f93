/** The tenant's webhooks: the list, and a new webhook whose signing secret is shown this once. */
import { Anchor, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { formatDate } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { QueryState } from '../../ui/QueryState';
import { SecretOnce } from '../../ui/SecretOnce';
import { describeEvents } from './events';
import { Pager } from '../../ui/Pager';
import { UrlText } from '../../ui/UrlText';
import { useListParams } from '../../ui/useListParams';
import { webhookKeys, WebhookStatus } from './shared';
import { WebhookForm, type WebhookValues } from './WebhookForm';

type Created = components['schemas']['WebhookCreatedResponse'];

const EMPTY: WebhookValues = { url: '', events: [], description: '', enabled: true };

export default function WebhooksPage() {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const { page, setPage } = useListParams([] as const);
  const list = useQuery({
    queryKey: webhookKeys.list(page),
    queryFn: () =>
      unwrap(api.GET('/v1/admin/webhooks', { params: { query: { page, limit: 20 } } })),
  });
  const create = useMutation({
    mutationFn: (values: WebhookValues) =>
      unwrap(
        api.POST('/v1/admin/webhooks', {
          body: {
            url: values.url.trim(),
            events: values.events,
            description: values.description.trim() || null,
            enabled: values.enabled,
          },
        }),
      ),
    onSuccess: (webhook) => {
      setCreated(webhook);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
  const close = () => {
    setCreating(false);
    setCreated(null);
    create.reset();
  };

  return (
    <>
      <PageTitle title="Webhooks">
        <Button onClick={() => setCreating(true)}>New webhook</Button>
      </PageTitle>
      <Text size="sm" c="dimmed" mb="md">
        Webhooks receive the events of every project of the tenant, signed with their own secret
        (Standard Webhooks).
      </Text>
      <QueryState
        query={list}
        label="webhooks"
        list
        isEmpty={(d) => d.webhooks.length === 0}
        empty="No webhooks yet. Create one to receive events at your endpoint."
      >
        {(data) => (
          <>
            <ListTable
              minWidth={720}
              nativeScroll
              striped
              highlightOnHover
              verticalSpacing="sm"
              columns={['Endpoint', 'Events', 'Status', 'Description', 'Created']}
              scoped
            >
              {data.webhooks.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/webhooks/${w.id}`}>
                      <UrlText value={w.url} />
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2} title={describeEvents(w.events)}>
                      {describeEvents(w.events)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <WebhookStatus webhook={w} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {w.description ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(w.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <Modal opened={creating} onClose={close} title="New webhook" size="lg">
        {created ? (
          <Stack>
            <SecretOnce label="Signing secret" secret={created.secret} />
            <Text size="sm">
              Your endpoint verifies each delivery's <code>webhook-signature</code> header with this
              secret.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Done
              </Button>
              <Button component={Link} to={`/webhooks/${created.id}`}>
                Open webhook
              </Button>
            </Group>
          </Stack>
        ) : (
          <WebhookForm
            initial={EMPTY}
            withEnabled
            submitLabel="Create webhook"
            busy={create.isPending}
            error={create.error}
            onSubmit={(values) => create.mutate(values)}
            onCancel={close}
          />
        )}
      </Modal>
    </>
  );
}
