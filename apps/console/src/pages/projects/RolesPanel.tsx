/**
 * The project's roles and permissions (docs/api-contract.md §14, docs/admin-api.md "Roles and
 * permissions"): the permission catalog (the four system ones, then the project's; create, delete)
 * and the roles members of its organizations hold (the built-in admin and member, then its own;
 * create, edit, delete), a role's permissions chosen from the catalog. The Roles tab.
 */
import {
  Badge,
  Button,
  Code,
  Group,
  Modal,
  MultiSelect,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { FormActions } from '../../ui/FormActions';
import { FormDialogs, useFormDialogs, type DialogForm } from '../../ui/FormDialogs';
import { FormProblem } from '../../ui/FormProblem';
import { ListTable } from '../../ui/ListTable';
import { QueryState } from '../../ui/QueryState';
import { Section } from '../../ui/Section';
import { useFormValues } from '../../ui/useFormValues';
import { projectRolesKey, useProjectRoles } from '../../ui/useProjectRoles';

type Permission = components['schemas']['PermissionResponse'];
type Role = components['schemas']['RoleResponse'];

const permissionsKey = (projectId: string) => ['permissions', projectId] as const;

/** Every permission of the project (at most 4 system + 500 of its own), read 100 a page. */
function usePermissions(projectId: string) {
  const api = useAdminApi();
  return useQuery({
    queryKey: permissionsKey(projectId),
    queryFn: async () => {
      const all: Permission[] = [];
      for (let page = 1; ; page++) {
        const data = await unwrap(
          api.GET('/v1/admin/projects/{id}/permissions', {
            params: { path: { id: projectId }, query: { page, limit: 100 } },
          }),
        );
        all.push(...data.permissions);
        if (all.length >= data.pagination.total || data.permissions.length === 0) return all;
      }
    },
  });
}

export default function RolesPanel({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const changed = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: permissionsKey(projectId) }),
      queryClient.invalidateQueries({ queryKey: projectRolesKey(projectId) }),
      queryClient.invalidateQueries({ queryKey: ['audit'] }),
    ]);
  const permissions = usePermissions(projectId);
  return (
    <Stack>
      <Text size="sm" maw={820}>
        Members of this project&apos;s organizations hold one role each; a role grants permissions,
        which land in the access token&apos;s <Code>org.permissions</Code> when the organization is
        active. <Code>admin</Code> holds every permission; <Code>member</Code> holds those you give
        it.
      </Text>
      <Roles projectId={projectId} permissions={permissions.data ?? []} onChange={changed} />
      <Permissions projectId={projectId} query={permissions} onChange={changed} />
    </Stack>
  );
}

const PERMISSION_FIELDS = ['key', 'description'] as const;

function Permissions({
  projectId,
  query,
  onChange,
}: {
  projectId: string;
  query: ReturnType<typeof usePermissions>;
  onChange: () => Promise<unknown>;
}) {
  const api = useAdminApi();
  const [creating, setCreating] = useState(false);
  const create = useMutation({
    mutationFn: (values: { key: string; description: string }) =>
      unwrap(
        api.POST('/v1/admin/projects/{id}/permissions', {
          params: { path: { id: projectId } },
          body: { key: values.key.trim(), description: values.description.trim() },
        }),
      ),
    onSuccess: () => {
      setCreating(false);
      void onChange();
    },
  });
  const close = () => {
    setCreating(false);
    create.reset();
  };
  const remove = async (p: Permission) => {
    await unwrap(
      api.DELETE('/v1/admin/projects/{id}/permissions/{key}', {
        params: { path: { id: projectId, key: p.key } },
      }),
    );
    await onChange();
  };
  return (
    <Section
      title="Permissions"
      actions={<Button onClick={() => setCreating(true)}>New permission</Button>}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          What your API checks (<Code>requirePermission(&apos;invoices:read&apos;)</Code>). The{' '}
          <Code>org:</Code> ones are the system permissions, in every project: they let a member
          manage the organization themselves.
        </Text>
        <QueryState query={query} label="permissions" list>
          {(all) => (
            <ListTable
              minWidth={560}
              striped
              verticalSpacing="xs"
              aria-label="Permissions"
              columns={['Key', 'Description']}
              actions
            >
              {all.map((p) => (
                <Table.Tr key={p.key}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Code>{p.key}</Code>
                      {p.system && (
                        <Badge size="xs" variant="default">
                          System
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.description || '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    {!p.system && (
                      <ConfirmButton
                        label="Delete"
                        aria-label={`Delete permission ${p.key}`}
                        title="Delete this permission?"
                        message={`${p.key} leaves the catalog. A permission that a role still grants cannot be deleted: take it out of those roles first (Edit on the role).`}
                        problemTitle="The permission is still granted"
                        confirmLabel="Delete permission"
                        onConfirm={() => remove(p)}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          )}
        </QueryState>
      </Stack>
      <Modal opened={creating} onClose={close} title="New permission">
        <PermissionForm
          busy={create.isPending}
          error={create.error}
          onSubmit={(values) => create.mutate(values)}
          onCancel={close}
        />
      </Modal>
    </Section>
  );
}

function PermissionForm({
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  error: unknown;
  onSubmit: (v: { key: string; description: string }) => void;
  onCancel: () => void;
}) {
  const { values, set, errors, submit } = useFormValues(
    { key: '', description: '' },
    { error, fields: PERMISSION_FIELDS, onSubmit },
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Key"
          description="resource:action in lower case, e.g. invoices:read (the org: namespace is the system's)"
          placeholder="invoices:read"
          required
          maxLength={64}
          value={values.key}
          onChange={(e) => set('key', e.currentTarget.value)}
          error={errors.fields.key}
        />
        <TextInput
          label="Description"
          placeholder="Read invoices"
          maxLength={300}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={errors.fields.description}
        />
        <FormProblem
          error={error}
          fields={PERMISSION_FIELDS}
          title="The permission was not saved"
        />
        <FormActions onCancel={onCancel} submitLabel="Create permission" busy={busy} />
      </Stack>
    </form>
  );
}

interface RoleValues {
  key: string;
  name: string;
  description: string;
  permissions: string[];
}
const ROLE_FIELDS = ['key', 'name', 'description', 'permissions'] as const;
const NEW_ROLE: RoleValues = { key: '', name: '', description: '', permissions: [] };

function Roles({
  projectId,
  permissions,
  onChange,
}: {
  projectId: string;
  permissions: Permission[];
  onChange: () => Promise<unknown>;
}) {
  const api = useAdminApi();
  const { query } = useProjectRoles(projectId);
  const dialogs = useFormDialogs({
    create: (v: RoleValues) =>
      unwrap(
        api.POST('/v1/admin/projects/{id}/roles', {
          params: { path: { id: projectId } },
          body: {
            key: v.key.trim(),
            name: v.name.trim(),
            description: v.description.trim(),
            permissions: v.permissions,
          },
        }),
      ),
    update: (role: Role, values: RoleValues) =>
      unwrap(
        api.PATCH('/v1/admin/projects/{id}/roles/{key}', {
          params: { path: { id: projectId, key: role.key } },
          body: {
            name: values.name.trim(),
            description: values.description.trim(),
            // admin holds every permission: its list is not the admin's to narrow, so it is not sent.
            ...(role.key !== 'admin' && { permissions: values.permissions }),
          },
        }),
      ),
    onSaved: onChange,
  });
  const remove = async (r: Role) => {
    await unwrap(
      api.DELETE('/v1/admin/projects/{id}/roles/{key}', {
        params: { path: { id: projectId, key: r.key } },
      }),
    );
    await onChange();
  };
  return (
    <Section title="Roles" actions={<Button onClick={dialogs.openCreate}>New role</Button>}>
      <QueryState query={query} label="roles" list>
        {(roles) => (
          <ListTable
            minWidth={720}
            striped
            verticalSpacing="xs"
            aria-label="Roles"
            columns={['Role', 'Permissions', 'Description']}
            actions
          >
            {roles.map((r) => (
              <Table.Tr key={r.key} data-role-key={r.key}>
                <Table.Td>
                  <Stack gap={2}>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm">{r.name}</Text>
                      {r.built_in && (
                        <Badge size="xs" variant="default">
                          Built-in
                        </Badge>
                      )}
                    </Group>
                    <Code w="fit-content">{r.key}</Code>
                  </Stack>
                </Table.Td>
                <Table.Td maw={360}>
                  <Text size="sm">
                    {r.key === 'admin'
                      ? 'Every permission, new ones included'
                      : r.permissions.length
                        ? r.permissions.join(', ')
                        : 'None'}
                  </Text>
                </Table.Td>
                <Table.Td maw={280}>
                  <Text size="sm">{r.description || '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Edit role ${r.name}`}
                      onClick={() => dialogs.openEdit(r)}
                    >
                      Edit
                    </Button>
                    {!r.built_in && (
                      <ConfirmButton
                        label="Delete"
                        aria-label={`Delete role ${r.name}`}
                        title="Delete this role?"
                        message={`${r.name} (${r.key}) is deleted. A role that a member or a pending invitation holds cannot be deleted: give those members another role on their organization's page, or revoke the invitations, first.`}
                        problemTitle="The role is still held"
                        confirmLabel="Delete role"
                        onConfirm={() => remove(r)}
                      />
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </QueryState>
      <FormDialogs
        dialogs={dialogs}
        createTitle="New role"
        editTitle={(r) => (r ? `Edit role “${r.name}”` : 'Edit role')}
        itemKey={(r) => r.key}
        renderCreate={(form) => (
          <RoleForm
            initial={NEW_ROLE}
            permissions={permissions}
            submitLabel="Create role"
            {...form}
          />
        )}
        renderEdit={(r, form) => (
          <RoleForm
            initial={{
              key: r.key,
              name: r.name,
              description: r.description,
              permissions: r.permissions,
            }}
            existing={r}
            permissions={permissions}
            submitLabel="Save role"
            {...form}
          />
        )}
      />
    </Section>
  );
}

function RoleForm({
  initial,
  existing,
  permissions,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: DialogForm<RoleValues> & {
  initial: RoleValues;
  existing?: Role;
  permissions: Permission[];
  submitLabel: string;
}) {
  const { values, set, errors, submit } = useFormValues(initial, {
    error,
    fields: ROLE_FIELDS,
    onSubmit,
  });
  const isAdmin = existing?.key === 'admin';
  const catalog = permissions.map((p) => p.key);
  const data = [...catalog, ...values.permissions.filter((k) => !catalog.includes(k))].map(
    (key) => ({ value: key, label: key }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Key"
          description={
            existing
              ? 'The key members hold; it never changes'
              : 'What members hold and tokens carry: a-z, 0-9, _ and -, at most 40; never changes'
          }
          placeholder="billing"
          required
          disabled={!!existing}
          maxLength={40}
          value={values.key}
          onChange={(e) => set('key', e.currentTarget.value)}
          error={errors.fields.key}
        />
        <TextInput
          label="Name"
          description="How the console names the role"
          placeholder="Billing"
          required
          maxLength={100}
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.fields.name}
        />
        <TextInput
          label="Description"
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={errors.fields.description}
        />
        {isAdmin ? (
          <Text size="sm" c="dimmed">
            Permissions: admin holds every permission, the system ones and the whole catalog (new
            ones included); they cannot be narrowed. Give narrower access with another role.
          </Text>
        ) : (
          <MultiSelect
            label="Permissions"
            description="From the catalog below; the org: ones let members manage the organization"
            placeholder={values.permissions.length ? undefined : 'Pick permissions'}
            searchable
            clearable
            hidePickedOptions
            nothingFoundMessage="No such permission: create it in the catalog first"
            data={data}
            value={values.permissions}
            onChange={(v) => set('permissions', v)}
            error={errors.fields.permissions}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <FormProblem error={error} fields={ROLE_FIELDS} title="The role was not saved" />
        <FormActions onCancel={onCancel} submitLabel={submitLabel} busy={busy} />
      </Stack>
    </form>
  );
}
