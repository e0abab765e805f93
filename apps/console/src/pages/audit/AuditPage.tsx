/**
 * The tenant's audit log, newest first: who did what to whom (by email and name, linked to their
 * pages), what changed (from → to), filtered as the admin types (action or prefix, actor, user,
 * project, UTC dates; all kept in the URL), exported as CSV with the same filters.
 */
import {
  Anchor,
  Autocomplete,
  Button,
  Code,
  Group,
  List,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { unwrap, type AdminClient } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { fieldErrors, ProblemAlert } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { downloadBlob } from '../../ui/download';
import { formatDate, json } from '../../ui/format';
import { PageTitle } from '../../ui/PageTitle';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { RemoteSelect, type Option } from '../../ui/RemoteSelect';
import { useTypedValue } from '../../ui/SearchInput';
import { UrlText } from '../../ui/UrlText';
import { useListParams } from '../../ui/useListParams';
import { EVENT_TYPES } from '../webhooks/events';
import { ACTION_PREFIXES, actionQuery, dataLines } from './audit-data';
import { useAuditNames, type Named } from './names';

type AuditEvent = components['schemas']['AuditEventResponse'];

const FILTERS = ['action', 'actor_id', 'user_id', 'project_id', 'start_date', 'end_date'] as const;
type Filter = (typeof FILTERS)[number];
/** The filters that pick a user (by email): who did it, and who it was done by or to. */
const USER_FILTERS = [
  { field: 'actor_id', label: 'Actor', placeholder: 'Who did it (email)' },
  { field: 'user_id', label: 'User', placeholder: 'Done by or to (email)' },
] as const;
const DATE_FILTERS = [
  { field: 'start_date', label: 'From (UTC day)', width: 170 },
  { field: 'end_date', label: 'To (UTC day, included)', width: 190 },
] as const;
const ACTION_OPTIONS = [
  { group: 'Prefixes', items: ACTION_PREFIXES },
  { group: 'Actions', items: EVENT_TYPES },
];
/** Resource types with a screen of their own. */
const RESOURCE_PATHS: Record<string, string> = {
  user: '/users',
  project: '/projects',
  webhook: '/webhooks',
  organization: '/organizations',
};

function short(id: string): string {
  return id.slice(0, 8);
}

/** The API's query for the filters of the URL. */
function auditQuery(values: Record<Filter, string>) {
  const action = actionQuery(values.action);
  const query: Record<string, string> = {};
  for (const key of FILTERS) if (key !== 'action' && values[key]) query[key] = values[key];
  return action ? { ...query, action } : query;
}

function searchUsers(api: AdminClient) {
  return async (q: string): Promise<Option[]> => {
    const found = await unwrap(
      api.GET('/v1/admin/users', { params: { query: { limit: 10, ...(q && { q }) } } }),
    );
    return found.users.map((u) => ({ value: u.id, label: u.email }));
  };
}

function searchProjects(api: AdminClient) {
  return async (q: string): Promise<Option[]> => {
    const found = await unwrap(
      api.GET('/v1/admin/projects', { params: { query: { limit: 10, ...(q && { q }) } } }),
    );
    return found.projects.map((p) => ({ value: p.id, label: p.name }));
  };
}

/** A name that links to its screen while the thing exists. */
function NameLink({ named, to }: { named: Named; to: string }) {
  if (!named.exists) return <>{named.label}</>;
  return (
    <Anchor component={Link} to={to} size="sm" onClick={(e) => e.stopPropagation()}>
      {named.label}
    </Anchor>
  );
}

/** The action box: what is typed is applied once typing pauses. */
function ActionFilter({
  value,
  onApply,
  error,
}: {
  value: string;
  onApply: (value: string) => void;
  error?: string;
}) {
  const [text, setText] = useTypedValue(value, onApply);
  return (
    <Autocomplete
      label="Action or prefix"
      placeholder="e.g. project.* or user.created"
      data={ACTION_OPTIONS}
      value={text}
      onChange={setText}
      error={error}
      w={{ base: '100%', sm: 240 }}
      limit={60}
      maxDropdownHeight={280}
    />
  );
}

export default function AuditPage() {
  const api = useAdminApi();
  const { page, values, setFilter, setPage } = useListParams(FILTERS);
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const query = auditQuery(values);

  const events = useQuery({
    queryKey: ['audit', query, page],
    queryFn: () => unwrap(api.GET('/v1/admin/audit', { params: { query: { page, ...query } } })),
    placeholderData: keepPreviousData,
  });
  const names = useAuditNames(events.data?.events ?? [], {
    users: [values.actor_id, values.user_id].filter(Boolean),
    projects: [values.project_id].filter(Boolean),
  });
  const errors = fieldErrors(events.error, FILTERS);
  const filtered = FILTERS.some((k) => values[k]);
  const clear = () => {
    for (const key of FILTERS) setFilter(key, null);
  };
  const exportCsv = () => {
    setExporting(true);
    setExportError(null);
    unwrap(
      api.GET('/v1/admin/audit/export', {
        params: { query: { format: 'csv', ...query } },
        parseAs: 'blob',
      }),
    )
      .then((blob) => downloadBlob(blob, `audit-${new Date().toISOString().slice(0, 10)}.csv`))
      .catch(setExportError)
      .finally(() => setExporting(false));
  };
  const selected = (id: string, named: Named): Option | null =>
    id ? { value: id, label: named.label } : null;

  const actor = (e: AuditEvent): ReactNode => {
    if (!e.actor_id) return e.actor_type;
    if (e.actor_type === 'api_key')
      return <span title={e.actor_id}>API key {short(e.actor_id)}</span>;
    return (
      <>
        <NameLink named={names.user(e.actor_id)} to={`/users/${e.actor_id}`} />
        {e.actor_type === 'admin' && (
          <Text span size="xs" c="dimmed">
            {' '}
            (admin)
          </Text>
        )}
      </>
    );
  };
  const resource = (e: AuditEvent): ReactNode => {
    if (!e.resource_id) return e.resource_type;
    const path = RESOURCE_PATHS[e.resource_type];
    const named =
      e.resource_type === 'user'
        ? names.user(e.resource_id)
        : e.resource_type === 'project'
          ? names.project(e.resource_id)
          : { label: short(e.resource_id), exists: !e.action.endsWith('.deleted') };
    return (
      <>
        {e.resource_type}{' '}
        {path ? (
          <span title={e.resource_id}>
            <NameLink named={named} to={`${path}/${e.resource_id}`} />
          </span>
        ) : (
          <span title={e.resource_id}>{named.label}</span>
        )}
      </>
    );
  };

  return (
    <>
      <PageTitle title="Audit log">
        <Button variant="default" onClick={exportCsv} loading={exporting}>
          Export CSV
        </Button>
      </PageTitle>
      <ProblemAlert error={exportError} title="The export failed" />
      <Group
        align="flex-end"
        gap="sm"
        mb="md"
        wrap="wrap"
        role="search"
        aria-label="Filter the audit log"
      >
        <ActionFilter
          value={values.action}
          onApply={(v) => setFilter('action', v)}
          error={errors.fields.action}
        />
        {USER_FILTERS.map(({ field, label, placeholder }) => (
          <RemoteSelect
            key={field}
            label={label}
            placeholder={placeholder}
            queryKey={['users', 'pick']}
            search={searchUsers(api)}
            selected={selected(values[field], names.user(values[field]))}
            value={values[field] || null}
            onChange={(id) => setFilter(field, id)}
            error={errors.fields[field]}
            w={{ base: '100%', sm: 220 }}
          />
        ))}
        <RemoteSelect
          label="Project"
          placeholder="Any project"
          queryKey={['projects', 'pick']}
          search={searchProjects(api)}
          selected={selected(values.project_id, names.project(values.project_id))}
          value={values.project_id || null}
          onChange={(id) => setFilter('project_id', id)}
          error={errors.fields.project_id}
          w={{ base: '100%', sm: 200 }}
        />
        {DATE_FILTERS.map(({ field, label, width }) => (
          <TextInput
            key={field}
            label={label}
            type="date"
            value={values[field]}
            onChange={(e) => setFilter(field, e.currentTarget.value)}
            error={errors.fields[field]}
            w={{ base: '100%', xs: width }}
          />
        ))}
        <Button variant="default" onClick={clear} disabled={!filtered}>
          Clear filters
        </Button>
      </Group>
      <QueryState
        query={events}
        label="audit events"
        list
        isEmpty={(d) => d.events.length === 0}
        empty={filtered ? 'No event matches these filters.' : 'No audit events yet.'}
      >
        {(data) => (
          <>
            <ListTable
              minWidth={1040}
              nativeScroll
              striped
              highlightOnHover
              verticalSpacing="xs"
              data-testid="audit-events"
              aria-busy={events.isPlaceholderData}
              opacity={events.isPlaceholderData ? 0.6 : 1}
              columns={[
                'Time',
                'Action',
                'Actor',
                'Resource',
                'What changed',
                'Project',
                'IP address',
              ]}
              scoped
            >
              {data.events.map((event) => (
                <Table.Tr key={event.id} data-action={event.action} data-event-id={event.id}>
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
                      onClick={() => setShown(event)}
                      aria-label={`${event.action} at ${formatDate(event.created_at)}: show the event's JSON`}
                      aria-haspopup="dialog"
                    >
                      {event.action}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" component="div">
                      {actor(event)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" component="div">
                      {resource(event)}
                    </Text>
                  </Table.Td>
                  <Table.Td data-testid="audit-changes">
                    <Changes data={event.data} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" component="div" title={event.project_id ?? undefined}>
                      {event.project_id ? (
                        <NameLink
                          named={names.project(event.project_id)}
                          to={`/projects/${event.project_id}`}
                        />
                      ) : (
                        '—'
                      )}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{event.ip_address ?? '—'}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={shown ? `Event ${shown.action}` : 'Event'}
        size="xl"
      >
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

/** `data` as lines: `field: from → to`, a secret as "changed", other members as `key: value`. */
function Changes({ data }: { data: Record<string, unknown> }) {
  const lines = dataLines(data);
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <List size="sm" listStyleType="none" spacing={2} maw={360}>
      {lines.map((l) => (
        <List.Item key={l.kind === 'fact' ? l.key : l.field}>
          {l.kind === 'change' && (
            <>
              <Text span size="sm" fw={600}>
                {l.field}
              </Text>
              :{' '}
              <del>
                <UrlText value={l.from} />
              </del>{' '}
              →{' '}
              <ins style={{ textDecoration: 'none' }}>
                <UrlText value={l.to} />
              </ins>
            </>
          )}
          {l.kind === 'secret' && (
            <>
              <Text span size="sm" fw={600}>
                {l.field}
              </Text>
              : changed (secret, not shown)
            </>
          )}
          {l.kind === 'fact' && (
            <>
              <Text span size="sm" fw={600}>
                {l.key}
              </Text>
              : <UrlText value={l.value} />
            </>
          )}
        </List.Item>
      ))}
    </List>
  );
}
