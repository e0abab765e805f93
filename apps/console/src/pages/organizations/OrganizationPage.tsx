/** One organization: edit name, slug and metadata, its policies (require MFA), manage members (add, role, remove), invitations (invite, revoke) and verified domains, delete it. Roles are the project's (its Roles tab). */
import {
  Anchor,
  Badge,
  Code,
  Group,
  NativeSelect,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { fieldErrors, ProblemAlert } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DetailGrid } from '../../ui/DetailGrid';
import { formatDate } from '../../ui/format';
import { MetadataInput, metadataText, parseMetadata } from '../../ui/MetadataInput';
import { PageTitle } from '../../ui/PageTitle';
import { SaveFooter } from '../../ui/SaveFooter';
import { Section } from '../../ui/Section';
import { Pager } from '../../ui/Pager';
import { useProjectOptions } from '../../ui/ProjectSelect';
import { QueryState } from '../../ui/QueryState';
import { useProjectRoles } from '../../ui/useProjectRoles';
import { DomainsSection } from './DomainsSection';

type Organization = components['schemas']['OrganizationResponse'];
type Member = components['schemas']['MemberResponse'];
type Invitation = components['schemas']['InvitationResponse'];
type Role = Member['role'];

export default function OrganizationPage() {
  const { id = '' } = useParams();
  const api = useAdminApi();
  const query = useQuery({
    queryKey: ['organization', id],
    queryFn: () => unwrap(api.GET('/v1/admin/organizations/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      {!query.data && <PageTitle title="Organization" />}
      <QueryState query={query} label="organization">
        {(org) => <OrganizationDetail org={org} />}
      </QueryState>
    </>
  );
}

function OrganizationDetail({ org }: { org: Organization }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { names } = useProjectOptions();
  const remove = async () => {
    await unwrap(api.DELETE('/v1/admin/organizations/{id}', { params: { path: { id: org.id } } }));
    void navigate('/organizations', { replace: true });
    queryClient.removeQueries({ queryKey: ['organization', org.id] });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['organizations'] }),
      queryClient.invalidateQueries({ queryKey: ['user'] }),
    ]);
  };
  return (
    <Stack>
      <PageTitle title={org.name}>
        <ConfirmButton
          label="Delete"
          title="Delete this organization?"
          confirmLabel="Delete organization"
          message={`${org.name} is deleted with its memberships and invitations (pending invitation links stop working). The users themselves are kept. This cannot be undone.`}
          onConfirm={remove}
        />
      </PageTitle>
      <Section title="Details">
        <Stack>
          <DetailGrid
            items={[
              {
                label: 'Project',
                value: (
                  <Anchor component={Link} to={`/projects/${org.project_id}`} size="sm">
                    {names.get(org.project_id) ?? org.project_id}
                  </Anchor>
                ),
              },
              { label: 'Created', value: formatDate(org.created_at) },
              { label: 'Updated', value: formatDate(org.updated_at) },
              { label: 'Organization ID', value: <Code>{org.id}</Code> },
            ]}
          />
          <EditForm key={org.id} org={org} />
        </Stack>
      </Section>
      <Policies org={org} />
      <Members org={org} />
      <Invitations org={org} />
      <DomainsSection org={org} />
    </Stack>
  );
}

const EDIT_FIELDS = ['name', 'slug', 'metadata'] as const;

function EditForm({ org }: { org: Organization }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState(org.name);
  const [slug, setSlug] = useState(org.slug);
  const [metadata, setMetadata] = useState(() => metadataText(org.metadata));
  const [local, setLocal] = useState<Partial<Record<(typeof EDIT_FIELDS)[number], string>>>({});
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: { name: string; slug: string; metadata: Record<string, unknown> }) =>
      unwrap(api.PATCH('/v1/admin/organizations/{id}', { params: { path: { id: org.id } }, body })),
    onSuccess: async (updated) => {
      setName(updated.name);
      setSlug(updated.slug);
      setMetadata(metadataText(updated.metadata));
      setSaved(true);
      queryClient.setQueryData(['organization', org.id], updated);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
        queryClient.invalidateQueries({ queryKey: ['user'] }),
      ]);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const parsed = parseMetadata(metadata);
    setLocal({
      name: name.trim() ? undefined : 'Required',
      slug: slug.trim() ? undefined : 'Required',
      metadata: parsed.error ?? undefined,
    });
    if (!name.trim() || !slug.trim() || !parsed.value) return;
    save.mutate({ name: name.trim(), slug: slug.trim(), metadata: parsed.value });
  };
  const server = fieldErrors(save.error, EDIT_FIELDS);
  const error = (f: (typeof EDIT_FIELDS)[number]) => local[f] ?? server.fields[f];
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setSaved(false);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Edit organization">
      <Stack>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => edit(setName)(e.currentTarget.value)}
            error={error('name')}
            miw={200}
          />
          <TextInput
            label="Slug"
            required
            description="Unique in the project"
            value={slug}
            onChange={(e) => edit(setSlug)(e.currentTarget.value)}
            error={error('slug')}
            miw={200}
          />
        </Group>
        <MetadataInput
          description="Replaces the whole object; at most 8 KiB."
          value={metadata}
          onChange={edit(setMetadata)}
          error={error('metadata')}
        />
        <SaveFooter
          error={save.error}
          fields={EDIT_FIELDS}
          problemTitle="Could not save the organization"
          label="Save changes"
          busy={save.isPending}
          saved={saved}
          savedBeside
        />
      </Stack>
    </form>
  );
}

/** The organization's policies (settings), each saved when it is switched. */
function Policies({ org }: { org: Organization }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (requireMfa: boolean) =>
      unwrap(
        api.PATCH('/v1/admin/organizations/{id}', {
          params: { path: { id: org.id } },
          body: { settings: { require_mfa: requireMfa } },
        }),
      ),
    onSuccess: (updated) => queryClient.setQueryData(['organization', org.id], updated),
  });
  const checked = save.isPending ? save.variables : org.settings.require_mfa;
  return (
    <Section title="Policies">
      <Stack gap="xs">
        <Switch
          label="Require MFA"
          description="Members without a second factor (authenticator app, SMS or passkey) cannot make this organization active until they enrol one (403 mfa-required). Memberships are kept."
          checked={checked}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.currentTarget.checked)}
        />
        <ProblemAlert error={save.error} title="The policy was not saved" />
        {save.isSuccess && !save.isPending && (
          <Text size="sm" role="status">
            Saved: MFA is {org.settings.require_mfa ? 'required' : 'not required'}.
          </Text>
        )}
      </Stack>
    </Section>
  );
}

function Members({ org }: { org: Organization }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const key = ['organization', org.id, 'members'];
  const roles = useProjectRoles(org.project_id);
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...key, page],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/organizations/{id}/members', {
          params: { path: { id: org.id }, query: { page, limit: 20 } },
        }),
      ),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: ['user'] }),
    ]);
  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      unwrap(
        api.PATCH('/v1/admin/organizations/{id}/members/{userId}', {
          params: { path: { id: org.id, userId: member.user_id } },
          body: { role },
        }),
      ),
    onSettled: refresh,
  });
  const remove = (member: Member) =>
    unwrap(
      api.DELETE('/v1/admin/organizations/{id}/members/{userId}', {
        params: { path: { id: org.id, userId: member.user_id } },
      }),
    ).then(refresh);
  return (
    <Section
      title="Members"
      actions={
        <Anchor component={Link} to={`/projects/${org.project_id}?tab=roles`} size="sm">
          The project&apos;s roles
        </Anchor>
      }
    >
      <Stack>
        <ProblemAlert error={changeRole.error} title="Could not change the role" />
        <QueryState
          query={query}
          label="members"
          isEmpty={(d) => d.members.length === 0}
          empty="No members yet: add a user of the project below, or invite one by email."
        >
          {(data) => (
            <>
              <ListTable
                minWidth={640}
                verticalSpacing="xs"
                aria-label="Members"
                columns={['Email', 'Username', 'Role', 'Joined']}
                actions
              >
                {data.members.map((m) => (
                  <Table.Tr key={m.user_id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/users/${m.user_id}`} size="sm">
                        {m.email}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{m.username ?? '—'}</Table.Td>
                    <Table.Td>
                      <NativeSelect
                        aria-label={`Role of ${m.email}`}
                        size="xs"
                        w={160}
                        data={roles.options(m.role)}
                        value={
                          changeRole.isPending && changeRole.variables.member.user_id === m.user_id
                            ? changeRole.variables.role
                            : m.role
                        }
                        disabled={changeRole.isPending}
                        onChange={(e) => {
                          const role = e.currentTarget.value;
                          if (role !== m.role) changeRole.mutate({ member: m, role });
                        }}
                      />
                    </Table.Td>
                    <Table.Td>{formatDate(m.created_at)}</Table.Td>
                    <Table.Td>
                      <ConfirmButton
                        label="Remove"
                        aria-label={`Remove ${m.email}`}
                        title="Remove this member?"
                        confirmLabel="Remove member"
                        message={`${m.email} leaves ${org.name}. The user account is kept.`}
                        onConfirm={() => remove(m)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ListTable>
              <Pager pagination={data.pagination} onPage={setPage} />
            </>
          )}
        </QueryState>
        <AddMemberForm org={org} onAdded={refresh} />
      </Stack>
    </Section>
  );
}

const ADD_FIELDS = ['user_id', 'role'] as const;

/** A user of the organization's project, found by email or username; the chosen id lands in the User ID field (which also takes an id typed or pasted). */
function UserPicker({ projectId, onPick }: { projectId: string; onPick: (id: string) => void }) {
  const api = useAdminApi();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const [q] = useDebouncedValue(search.trim(), 300);
  const query = useQuery({
    queryKey: ['users', { q, project: projectId, page: 1, limit: 10 }],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/users', {
          params: { query: { q: q || undefined, project_id: projectId, limit: 10 } },
        }),
      ),
  });
  const options = (query.data?.users ?? []).map((u) => ({
    value: u.id,
    label: u.username ? `${u.email} (${u.username})` : u.email,
  }));
  const data =
    picked && !options.some((o) => o.value === picked.value) ? [picked, ...options] : options;
  return (
    <Select
      label="Find a user of the project"
      placeholder="Type an email or a username"
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      data={data}
      value={picked?.value ?? null}
      onChange={(value, option) => {
        setPicked(option ? { value: option.value, label: option.label } : null);
        if (value) onPick(value);
      }}
      nothingFoundMessage={
        query.isFetching
          ? 'Searching…'
          : query.isError
            ? 'Could not search the users'
            : 'No user of this project matches'
      }
      miw={240}
      style={{ flex: 2 }}
    />
  );
}

function AddMemberForm({ org, onAdded }: { org: Organization; onAdded: () => Promise<unknown> }) {
  const api = useAdminApi();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [local, setLocal] = useState<string | undefined>();
  const [picker, setPicker] = useState(0);
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/organizations/{id}/members', {
          params: { path: { id: org.id } },
          body: { user_id: userId.trim(), role },
        }),
      ),
    onSuccess: async () => {
      setUserId('');
      setRole('member');
      setPicker((n) => n + 1);
      await onAdded();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocal(userId.trim() ? undefined : 'Pick a user or enter a user ID');
    if (userId.trim()) add.mutate();
  };
  const server = fieldErrors(add.error, ADD_FIELDS);
  return (
    <form onSubmit={submit} noValidate aria-label="Add a member">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Add a member
        </Title>
        <Group align="flex-start" wrap="wrap">
          <UserPicker key={picker} projectId={org.project_id} onPick={setUserId} />
          <TextInput
            label="User ID"
            value={userId}
            onChange={(e) => setUserId(e.currentTarget.value)}
            error={local ?? server.fields.user_id}
            miw={240}
            style={{ flex: 2 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <RoleInput
            projectId={org.project_id}
            value={role}
            onChange={setRole}
            error={server.fields.role}
          />
        </Group>
        <SaveFooter
          error={add.error}
          fields={ADD_FIELDS}
          problemTitle="Could not add the member"
          label="Add member"
          busy={add.isPending}
        />
      </Stack>
    </form>
  );
}

/** The role a member is given, in the add and invite forms: one of the project's roles. */
function RoleInput({
  projectId,
  value,
  onChange,
  error,
}: {
  projectId: string;
  value: Role;
  onChange: (role: Role) => void;
  error: string | undefined;
}) {
  const roles = useProjectRoles(projectId);
  return (
    <NativeSelect
      label="Role"
      data={roles.options(value)}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      miw={160}
    />
  );
}

const INVITATION_COLORS: Record<Invitation['status'], string> = {
  pending: 'blue',
  accepted: 'teal',
  revoked: 'gray',
  expired: 'orange',
};
const INVITE_FIELDS = ['email', 'role'] as const;

function Invitations({ org }: { org: Organization }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const key = ['organization', org.id, 'invitations'];
  const roles = useProjectRoles(org.project_id);
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...key, page],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/organizations/{id}/invitations', {
          params: { path: { id: org.id }, query: { page, limit: 20 } },
        }),
      ),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const revoke = (inv: Invitation) =>
    unwrap(
      api.DELETE('/v1/admin/organizations/{id}/invitations/{invitationId}', {
        params: { path: { id: org.id, invitationId: inv.id } },
      }),
    ).then(refresh);
  return (
    <Section title="Invitations">
      <Stack>
        <QueryState
          query={query}
          label="invitations"
          isEmpty={(d) => d.invitations.length === 0}
          empty="No invitations yet."
        >
          {(data) => (
            <>
              <ListTable
                minWidth={640}
                verticalSpacing="xs"
                aria-label="Invitations"
                columns={['Email', 'Role', 'Status', 'Sent', 'Expires']}
                actions
              >
                {data.invitations.map((inv) => (
                  <Table.Tr key={inv.id}>
                    <Table.Td>{inv.email}</Table.Td>
                    <Table.Td>{roles.label(inv.role)}</Table.Td>
                    <Table.Td>
                      <Badge variant="dot" size="sm" color={INVITATION_COLORS[inv.status]}>
                        {inv.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{formatDate(inv.created_at)}</Table.Td>
                    <Table.Td>
                      {inv.status === 'pending' || inv.status === 'expired'
                        ? formatDate(inv.expires_at)
                        : '—'}
                    </Table.Td>
                    <Table.Td>
                      {(inv.status === 'pending' || inv.status === 'expired') && (
                        <ConfirmButton
                          label="Revoke"
                          aria-label={`Revoke the invitation of ${inv.email}`}
                          title="Revoke this invitation?"
                          confirmLabel="Revoke invitation"
                          message={`The link mailed to ${inv.email} stops working.`}
                          onConfirm={() => revoke(inv)}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ListTable>
              <Pager pagination={data.pagination} onPage={setPage} />
            </>
          )}
        </QueryState>
        <InviteForm org={org} onInvited={refresh} />
      </Stack>
    </Section>
  );
}

function InviteForm({ org, onInvited }: { org: Organization; onInvited: () => Promise<unknown> }) {
  const api = useAdminApi();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [local, setLocal] = useState<string | undefined>();
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/organizations/{id}/invitations', {
          params: { path: { id: org.id } },
          body: { email: email.trim(), role },
        }),
      ),
    onSuccess: async () => {
      setEmail('');
      setRole('member');
      await onInvited();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocal(email.trim() ? undefined : 'Required');
    if (email.trim()) invite.mutate();
  };
  const server = fieldErrors(invite.error, INVITE_FIELDS);
  return (
    <form onSubmit={submit} noValidate aria-label="Invite by email">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Invite by email
        </Title>
        <Text size="sm" c="dimmed">
          The invitation mail links to the project&apos;s invitation page (its invitation URL,
          default redirect URL or first redirect URL) and is valid for 7 days.
        </Text>
        <Group align="flex-start" wrap="wrap">
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={local ?? server.fields.email}
            miw={240}
            style={{ flex: 2 }}
          />
          <RoleInput
            projectId={org.project_id}
            value={role}
            onChange={setRole}
            error={server.fields.role}
          />
        </Group>
        <SaveFooter
          error={invite.error}
          fields={INVITE_FIELDS}
          problemTitle="Could not send the invitation"
          label="Send invitation"
          busy={invite.isPending}
        />
      </Stack>
    </form>
  );
}
