/** The tenant's audit log, newest first: filtered by action and UTC date range, each event's full JSON a click away. */
import { Anchor, Autocomplete, Button, Code, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { fieldErrors } from '../../api/problem';
import { useAdminApi } from '../../auth/AuthContext';
import { formatDate, json } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { EVENT_TYPES } from '../webhooks/events';

type AuditEvent = components['schemas']['AuditEventResponse'];

const FILTERS = ['action', 'start_date', 'end_date'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function short(id: string | null): string {
  return id ? id.slice(0, 8) : '—';
}

export default function AuditPage() {
  const api = useAdminApi();
  const [params, setParams] = useSearchParams();
  const applied: Filters = { action: params.get('action') ?? '', start_date: params.get('start_date') ?? '', end_date: params.get('end_date') ?? '' };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  const [opened, setOpened] = useState(false);
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const show = (event: AuditEvent) => {
    setShown(event);
    setOpened(true);
  };

  const events = useQuery({
    queryKey: ['audit', applied, page],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/audit', {
          params: { query: { page, ...(applied.action && { action: applied.action }), ...(applied.start_date && { start_date: applied.start_date }), ...(applied.end_date && { end_date: applied.end_date }) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const errors = fieldErrors(events.error, FILTERS);
  const setFilter = (key: keyof Filters, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const apply = (filters: Filters, toPage = 1) => {
    const next = new URLSearchParams();
    for (const key of FILTERS) if (filters[key].trim()) next.set(key, filters[key].trim());
    if (toPage > 1) next.set('page', String(toPage));
    setParams(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(draft);
  };
  const clear = () => {
    const empty = { action: '', start_date: '', end_date: '' };
    setDraft(empty);
    apply(empty);
  };
  const filtered = FILTERS.some((k) => applied[k]);

  return (
    <>
      <PageTitle title="Audit log" />
      <form onSubmit={submit} aria-label="Filter the audit log">
        <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
          <Autocomplete
            label="Action"
            placeholder="e.g. user.created"
            data={EVENT_TYPES}
            value={draft.action}
            onChange={(action) => setFilter('action', action)}
            error={errors.fields.action}
            w={{ base: '100%', sm: 260 }}
            limit={50}
            maxDropdownHeight={280}
          />
          <TextInput label="From (UTC day)" type="date" value={draft.start_date} onChange={(e) => setFilter('start_date', e.currentTarget.value)} error={errors.fields.start_date} w={{ base: '100%', xs: 170 }} />
          <TextInput label="To (UTC day, included)" type="date" value={draft.end_date} onChange={(e) => setFilter('end_date', e.currentTarget.value)} error={errors.fields.end_date} w={{ base: '100%', xs: 190 }} />
          <Group gap="xs">
            <Button type="submit">Apply filters</Button>
            <Button variant="default" onClick={clear} disabled={!filtered && !FILTERS.some((k) => draft[k])}>
              Clear
            </Button>
          </Group>
        </Group>
      </form>
      <QueryState query={events} label="audit events" isEmpty={(d) => d.events.length === 0} empty={filtered ? 'No event matches these filters.' : 'No audit events yet.'}>
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={860} type="native">
              <Table striped highlightOnHover verticalSpacing="xs" data-testid="audit-events" aria-busy={events.isPlaceholderData} opacity={events.isPlaceholderData ? 0.6 : 1}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Time</Table.Th>
                    <Table.Th scope="col">Action</Table.Th>
                    <Table.Th scope="col">Actor</Table.Th>
                    <Table.Th scope="col">Resource</Table.Th>
                    <Table.Th scope="col">Project</Table.Th>
                    <Table.Th scope="col">IP address</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.events.map((event) => (
                    <Table.Tr key={event.id} onClick={() => show(event)} style={{ cursor: 'pointer' }} data-action={event.action} data-event-id={event.id}>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatDate(event.created_at)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component="button"
                          type="button"
                          size="sm"
                          onClick={(e) => {
                            e.stopPropagation();
                            show(event);
                          }}
                          aria-label={`${event.action} at ${formatDate(event.created_at)}: show the event's JSON`}
                          aria-haspopup="dialog"
                        >
                          {event.action}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {event.actor_type} <span title={event.actor_id ?? undefined}>{event.actor_id ? short(event.actor_id) : ''}</span>
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {event.resource_type} <span title={event.resource_id ?? undefined}>{short(event.resource_id)}</span>
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" title={event.project_id ?? undefined}>
                          {short(event.project_id)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{event.ip_address ?? '—'}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager pagination={data.pagination} onPage={(p) => apply(applied, p)} />
          </>
        )}
      </QueryState>
      <Modal opened={opened} onClose={() => setOpened(false)} title={shown ? `Event ${shown.action}` : 'Event'} size="xl">
        {shown && (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {formatDate(shown.created_at)} · {shown.user_agent ?? 'no user agent'}
            </Text>
            <Code block tabIndex={0} aria-label="The event as JSON" data-testid="audit-event-json">
              {json(shown)}
            </Code>
          </Stack>
        )}
      </Modal>
    </>
  );
}
