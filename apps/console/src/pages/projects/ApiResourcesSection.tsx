/**
 * The project's API resources (docs/oidc.md "API resources"): the APIs its OpenID Connect provider
 * issues RFC 9068 access tokens for (an MCP server, a backend), with their scopes; create, edit
 * (scopes included) and delete. Part of the OpenID Connect tab.
 */
import {
  ActionIcon,
  Badge,
  Button,
  Code,
  Group,
  NumberInput,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { CopyValue } from '../../ui/CopyValue';
import { FormActions } from '../../ui/FormActions';
import { FormDialogs, useFormDialogs, type DialogForm } from '../../ui/FormDialogs';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate } from '../../ui/format';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { Section } from '../../ui/Section';
import { useListParams } from '../../ui/useListParams';
import { useFormValues } from '../../ui/useFormValues';

type Resource = components['schemas']['ApiResourceResponse'];
type Create = components['schemas']['CreateApiResourceDto'];

interface Values {
  identifier: string;
  name: string;
  scopes: { name: string; description: string }[];
  ttl: number | '';
  allowDynamicClients: boolean;
}

const NEW_RESOURCE: Values = {
  identifier: '',
  name: '',
  scopes: [{ name: '', description: '' }],
  ttl: '',
  allowDynamicClients: false,
};
const FIELDS = [
  'identifier',
  'name',
  'scopes',
  'access_token_ttl_seconds',
  'allow_dynamic_clients',
] as const;
const keys = {
  all: (projectId: string) => ['api-resources', projectId] as const,
  page: (projectId: string, page: number) => ['api-resources', projectId, page] as const,
};

function valuesOf(r: Resource): Values {
  return {
    identifier: r.identifier,
    name: r.name,
    scopes: r.scopes.map((s) => ({ ...s })),
    ttl: r.access_token_ttl_seconds ?? '',
    allowDynamicClients: r.allow_dynamic_clients,
  };
}

/** The body of a create or a PATCH (every member: the form shows them all); empty scope rows are left out. */
function bodyOf(v: Values): Required<Create> {
  return {
    identifier: v.identifier.trim(),
    name: v.name.trim(),
    scopes: v.scopes
      .filter((s) => s.name.trim() || s.description.trim())
      .map((s) => ({ name: s.name.trim(), description: s.description.trim() })),
    access_token_ttl_seconds: v.ttl === '' ? null : v.ttl,
    allow_dynamic_clients: v.allowDynamicClients,
  };
}

export function ApiResourcesSection({ projectId }: { projectId: string }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const { page, setPage } = useListParams([] as const);
  const list = useQuery({
    queryKey: keys.page(projectId, page),
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/projects/{id}/api-resources', {
          params: { path: { id: projectId }, query: { page, limit: 20 } },
        }),
      ),
  });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
    return queryClient.invalidateQueries({ queryKey: keys.all(projectId) });
  };
  const dialogs = useFormDialogs({
    create: (values: Values) =>
      unwrap(
        api.POST('/v1/admin/projects/{id}/api-resources', {
          params: { path: { id: projectId } },
          body: bodyOf(values),
        }),
      ),
    update: (r: Resource, values: Values) =>
      unwrap(
        api.PATCH('/v1/admin/projects/{id}/api-resources/{resource_id}', {
          params: { path: { id: projectId, resource_id: r.id } },
          body: bodyOf(values),
        }),
      ),
    onSaved: changed,
  });
  const remove = async (r: Resource) => {
    await unwrap(
      api.DELETE('/v1/admin/projects/{id}/api-resources/{resource_id}', {
        params: { path: { id: projectId, resource_id: r.id } },
      }),
    );
    await changed();
  };

  return (
    <Section
      title="API resources"
      actions={<Button onClick={dialogs.openCreate}>New API resource</Button>}
    >
      <Stack>
        <Text size="sm">
          APIs that clients call with an access token of this project (an MCP server, your backend).
          A client that sends the identifier as <Code>resource</Code> gets a JWT whose{' '}
          <Code>aud</Code> is the identifier, with the scopes the user allowed.
        </Text>
        <QueryState
          query={list}
          label="API resources"
          list
          isEmpty={(d) => d.api_resources.length === 0}
          empty="No API resources yet. Register each API that accepts this project's tokens."
        >
          {(data) => (
            <>
              <ListTable
                minWidth={880}
                nativeScroll
                striped
                verticalSpacing="xs"
                aria-label="API resources"
                columns={['API', 'Scopes', 'Self-registered clients', 'Token lifetime', 'Created']}
                scoped
                actions
              >
                {data.api_resources.map((r) => (
                  <Table.Tr key={r.id} data-resource-id={r.id}>
                    <Table.Td maw={320}>
                      <Stack gap={2}>
                        <Text size="sm">{r.name}</Text>
                        <CopyValue value={r.identifier} label={`the identifier of ${r.name}`} />
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {r.scopes.length ? r.scopes.map((s) => s.name).join(', ') : '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={r.allow_dynamic_clients ? 'teal.9' : 'gray.7'}
                        variant="filled"
                        miw="max-content"
                      >
                        {r.allow_dynamic_clients ? 'Allowed' : 'Not allowed'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {r.access_token_ttl_seconds === null
                          ? "Project's"
                          : `${r.access_token_ttl_seconds} s`}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDate(r.created_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Edit ${r.name}`}
                          onClick={() => dialogs.openEdit(r)}
                        >
                          Edit
                        </Button>
                        <ConfirmButton
                          label="Delete"
                          aria-label={`Delete ${r.name}`}
                          title="Delete this API resource?"
                          message={`Clients can no longer get tokens for “${r.name}” (invalid_target); tokens already issued work until they expire.`}
                          confirmLabel="Delete API resource"
                          onConfirm={() => remove(r)}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ListTable>
              <Pager pagination={data.pagination} onPage={setPage} />
            </>
          )}
        </QueryState>
      </Stack>

      <FormDialogs
        dialogs={dialogs}
        createTitle="New API resource"
        editTitle={(r) => (r ? `Edit “${r.name}”` : 'Edit API resource')}
        itemKey={(r) => r.id}
        renderCreate={(form) => (
          <ResourceForm initial={NEW_RESOURCE} submitLabel="Create API resource" {...form} />
        )}
        renderEdit={(r, form) => (
          <ResourceForm initial={valuesOf(r)} submitLabel="Save API resource" {...form} />
        )}
      />
    </Section>
  );
}

function ResourceForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: DialogForm<Values> & { initial: Values; submitLabel: string }) {
  const { values, set, errors, submit } = useFormValues(initial, {
    error,
    fields: FIELDS,
    onSubmit,
  });
  const setScope = (i: number, member: 'name' | 'description', value: string) =>
    set(
      'scopes',
      values.scopes.map((s, j) => (j === i ? { ...s, [member]: value } : s)),
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Identifier"
          description="The API's URL, sent by clients as resource and put in the tokens' aud: https (http only on localhost), no query or fragment"
          placeholder="https://mcp.example.com/mcp"
          required
          value={values.identifier}
          onChange={(e) => set('identifier', e.currentTarget.value)}
          error={errors.fields.identifier}
        />
        <TextInput
          label="Name"
          description="Shown to users on the consent screen"
          required
          maxLength={100}
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.fields.name}
        />
        <Stack gap="xs" role="group" aria-labelledby="api-resource-scopes">
          <Text id="api-resource-scopes" size="sm" fw={500}>
            Scopes
          </Text>
          <Text size="xs" c="dimmed">
            What a token for this API may allow; the description is what users read on the consent
            screen
          </Text>
          {values.scopes.map((s, i) => (
            <Group key={i} align="flex-end" wrap="nowrap">
              <TextInput
                label={`Scope ${i + 1} name`}
                placeholder="mcp:tools"
                value={s.name}
                onChange={(e) => setScope(i, 'name', e.currentTarget.value)}
                w={200}
              />
              <TextInput
                label={`Scope ${i + 1} description`}
                placeholder="Use the tools of the MCP server"
                value={s.description}
                onChange={(e) => setScope(i, 'description', e.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={`Remove scope ${i + 1}`}
                onClick={() =>
                  set(
                    'scopes',
                    values.scopes.filter((_, j) => j !== i),
                  )
                }
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          {errors.fields.scopes && (
            <Text size="sm" c="red.8" role="alert">
              {errors.fields.scopes}
            </Text>
          )}
          <Group>
            <Button
              size="xs"
              variant="default"
              onClick={() => set('scopes', [...values.scopes, { name: '', description: '' }])}
            >
              Add scope
            </Button>
          </Group>
        </Stack>
        <NumberInput
          label="Access token lifetime (seconds)"
          description="60 to 86400; empty: the project's access token lifetime"
          min={60}
          max={86400}
          allowDecimal={false}
          value={values.ttl}
          onChange={(v) => set('ttl', typeof v === 'number' ? v : '')}
          error={errors.fields.access_token_ttl_seconds}
        />
        <Switch
          label="Allow self-registered clients"
          description="Clients that registered themselves (MCP clients, RFC 7591) may get tokens for this API after the user consents"
          checked={values.allowDynamicClients}
          onChange={(e) => set('allowDynamicClients', e.currentTarget.checked)}
          error={errors.fields.allow_dynamic_clients}
        />
        <FormProblem error={error} fields={FIELDS} title="The API resource was not saved" />
        <FormActions onCancel={onCancel} submitLabel={submitLabel} busy={busy} />
      </Stack>
    </form>
  );
}
