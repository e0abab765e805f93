/**
 * One user. Overview: profile (mark the email verified, send a password reset), second factors and
 * passkeys (remove one, reset MFA), live sessions (revoke one or all), organizations, metadata;
 * disable/enable, Unlock while a lockout holds, Sign in as user, delete. Activity: what happened
 * to them (UserActivity). The tab and the activity page are in the URL (`?tab=activity&page=2`).
 */
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Stack,
  Table,
  Tabs,
  Text,
  Tooltip,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { fieldErrors, ProblemAlert } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { factorName } from '../../ui/factor-names';
import { DetailGrid } from '../../ui/DetailGrid';
import { formatDate } from '../../ui/format';
import { MetadataInput, metadataText, parseMetadata } from '../../ui/MetadataInput';
import { PageTitle } from '../../ui/PageTitle';
import { SaveFooter } from '../../ui/SaveFooter';
import { Section } from '../../ui/Section';
import { useProjectOptions } from '../../ui/ProjectSelect';
import { QueryState } from '../../ui/QueryState';
import { useProjectRoles } from '../../ui/useProjectRoles';
import { describeDevice } from './device';
import { SignInAsUserButton } from './SignInAsUser';
import { StatusBadge } from './StatusBadge';
import { UserActivity } from './UserActivity';
import { UserFactors } from './UserFactors';

type User = components['schemas']['UserDetailResponse'];
type Session = components['schemas']['UserSessionResponse'];

export default function UserPage() {
  const { id = '' } = useParams();
  const api = useAdminApi();
  const query = useQuery({
    queryKey: ['user', id],
    queryFn: () => unwrap(api.GET('/v1/admin/users/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      {!query.data && <PageTitle title="User" />}
      <QueryState query={query} label="user">
        {(user) => <UserDetail user={user} />}
      </QueryState>
    </>
  );
}

function UserDetail({ user }: { user: User }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'activity' ? 'activity' : 'overview';
  const activityPage = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const { names } = useProjectOptions();
  // The user, their factors and their activity (every change here is an audit event of theirs).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['user', user.id] }),
      queryClient.invalidateQueries({ queryKey: ['users'] }),
      queryClient.invalidateQueries({ queryKey: ['audit'] }),
    ]);
  const setStatus = (status: User['status']) =>
    unwrap(
      api.PATCH('/v1/admin/users/{id}', { params: { path: { id: user.id } }, body: { status } }),
    ).then(refresh);
  const activate = useMutation({ mutationFn: () => setStatus('active') });
  const [activated, setActivated] = useState<string | null>(
    (location.state as { created?: string } | null)?.created ?? null,
  );
  const setVerified = useMutation({
    mutationFn: (verified: boolean) =>
      unwrap(
        api.PATCH('/v1/admin/users/{id}', {
          params: { path: { id: user.id } },
          body: { email_verified: verified },
        }),
      ).then(refresh),
    onSuccess: (_, verified) =>
      setActivated(
        verified
          ? 'The email address is marked verified.'
          : 'The email address is marked not verified.',
      ),
  });
  const sendReset = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/admin/users/{id}/password-reset', {
          params: { path: { id: user.id } },
          body: {},
        }),
      ).then(refresh),
    onSuccess: () =>
      setActivated(
        `A password reset mail is on its way to ${user.email} (its link works for an hour).`,
      ),
  });
  const lockedUntil = user.locked_until;
  const setParam = (name: 'tab' | 'page', value: string | null, replace: boolean) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        if (name === 'tab') next.delete('page');
        return next;
      },
      { replace },
    );

  const remove = async () => {
    await unwrap(api.DELETE('/v1/admin/users/{id}', { params: { path: { id: user.id } } }));
    void navigate('/users', { replace: true });
    queryClient.removeQueries({ queryKey: ['user', user.id] });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['users'] }),
      queryClient.invalidateQueries({ queryKey: ['organization'] }),
    ]);
  };

  return (
    <Stack>
      <PageTitle title={user.email}>
        {user.status === 'active' && !user.is_admin && (
          <SignInAsUserButton userId={user.id} email={user.email} projectId={user.project_id} />
        )}
        {user.status === 'active' ? (
          <>
            {lockedUntil && (
              <Tooltip
                label={`Too many failed sign-ins: locked until ${formatDate(lockedUntil)}`}
                withinPortal
              >
                <Button
                  variant="default"
                  size="xs"
                  loading={activate.isPending}
                  onClick={() =>
                    activate.mutate(undefined, {
                      onSuccess: () =>
                        setActivated('The lockout is cleared: the user can sign in again.'),
                    })
                  }
                >
                  Unlock
                </Button>
              </Tooltip>
            )}
            <ConfirmButton
              label="Disable"
              title="Disable this user?"
              confirmLabel="Disable"
              message={`${user.email} is signed out everywhere at once (every session is revoked) and cannot sign in until enabled again.`}
              onConfirm={() => setStatus('disabled').then(() => setActivated(null))}
            />
          </>
        ) : (
          <Button
            size="xs"
            loading={activate.isPending}
            onClick={() =>
              activate.mutate(undefined, {
                onSuccess: () => setActivated('The user is enabled (and any lockout cleared).'),
              })
            }
          >
            Enable
          </Button>
        )}
        <ConfirmButton
          label="Delete"
          title="Delete this user?"
          confirmLabel="Delete user"
          message={`${user.email} is deleted with their credentials, sessions, factors, passkeys and memberships. This cannot be undone.`}
          onConfirm={remove}
        />
      </PageTitle>
      <ProblemAlert error={activate.error} title="Could not change the status" />
      <ProblemAlert error={setVerified.error} title="Could not change the email’s verification" />
      <ProblemAlert error={sendReset.error} title="Could not send the password reset" />
      {activated && !activate.error && (
        <Text size="sm" role="status" fw={500}>
          {activated}
        </Text>
      )}

      <Tabs
        value={tab}
        onChange={(v) => setParam('tab', v === 'activity' ? v : null, true)}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <Stack>{overview()}</Stack>
        </Tabs.Panel>
        <Tabs.Panel value="activity">
          <UserActivity
            userId={user.id}
            page={activityPage}
            onPage={(p) => setParam('page', p > 1 ? String(p) : null, false)}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );

  /** The Overview tab's sections (a plain function: a component declared here would remount them on every render). */
  function overview() {
    return (
      <>
        <Section
          title="Profile"
          actions={
            <Group gap="xs">
              {user.status === 'active' && (
                <Button
                  variant="default"
                  size="xs"
                  loading={sendReset.isPending}
                  onClick={() => sendReset.mutate()}
                >
                  Send password reset
                </Button>
              )}
              <Button
                variant="default"
                size="xs"
                loading={setVerified.isPending}
                onClick={() => setVerified.mutate(!user.email_verified)}
              >
                {user.email_verified ? 'Mark email not verified' : 'Mark email verified'}
              </Button>
            </Group>
          }
        >
          <DetailGrid
            items={[
              { label: 'Email', value: user.email },
              { label: 'Username', value: user.username ?? '—' },
              {
                label: 'Status',
                value: (
                  <Group gap={6} component="span">
                    <StatusBadge status={user.status} />
                    {lockedUntil && (
                      <Badge variant="default" size="sm">
                        locked until {formatDate(lockedUntil)}
                      </Badge>
                    )}
                  </Group>
                ),
              },
              { label: 'Email verified', value: user.email_verified ? 'Yes' : 'No' },
              { label: 'Tenant admin', value: user.is_admin ? 'Yes (console access)' : 'No' },
              {
                label: 'Project',
                value: (
                  <Anchor component={Link} to={`/projects/${user.project_id}`} size="sm">
                    {names.get(user.project_id) ?? user.project_id}
                  </Anchor>
                ),
              },
              {
                label: 'MFA factors',
                value: user.mfa_factors.length ? (
                  <Group gap={4}>
                    {user.mfa_factors.map((f) => (
                      <Badge key={f} size="sm" variant="default">
                        {factorName(f)}
                      </Badge>
                    ))}
                  </Group>
                ) : (
                  'None'
                ),
              },
              { label: 'Created', value: formatDate(user.created_at) },
              { label: 'Last sign-in', value: formatDate(user.last_sign_in_at) },
              { label: 'Updated', value: formatDate(user.updated_at) },
              { label: 'User ID', value: <Code>{user.id}</Code> },
            ]}
          />
        </Section>

        <UserFactors userId={user.id} email={user.email} onChange={refresh} />

        <Sessions user={user} onChange={refresh} />

        <Organizations user={user} />

        <Section title="Metadata">
          <MetadataForm key={user.id} user={user} onSaved={refresh} />
        </Section>
      </>
    );
  }
}

/** The user's memberships; roles named as the project names them. */
function Organizations({ user }: { user: User }) {
  const roles = useProjectRoles(user.project_id);
  return (
    <Section title="Organizations">
      {user.organizations.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="empty-state">
          Not a member of any organization.
        </Text>
      ) : (
        <ListTable
          minWidth={520}
          verticalSpacing="xs"
          aria-label="Organizations of the user"
          columns={['Name', 'Slug', 'Role', 'Joined']}
        >
          {user.organizations.map((o) => (
            <Table.Tr key={o.id}>
              <Table.Td>
                <Anchor component={Link} to={`/organizations/${o.id}`} size="sm">
                  {o.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{o.slug}</Table.Td>
              <Table.Td>{roles.label(o.role)}</Table.Td>
              <Table.Td>{formatDate(o.joined_at)}</Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
    </Section>
  );
}

function Sessions({ user, onChange }: { user: User; onChange: () => Promise<unknown> }) {
  const api = useAdminApi();
  const revoke = (s: Session) =>
    unwrap(
      api.DELETE('/v1/admin/users/{id}/sessions/{session_id}', {
        params: { path: { id: user.id, session_id: s.id } },
      }),
    ).then(onChange);
  const revokeAll = () =>
    unwrap(api.DELETE('/v1/admin/users/{id}/sessions', { params: { path: { id: user.id } } })).then(
      onChange,
    );
  return (
    <Section
      title="Active sessions"
      actions={
        user.sessions.length > 0 && (
          <ConfirmButton
            label="Revoke all sessions"
            title="Revoke every session?"
            confirmLabel="Revoke all"
            message={`${user.email} is signed out on every device (${user.sessions.length} session${user.sessions.length === 1 ? '' : 's'}); their tokens are refused from the next request. The account stays active: they can sign in again.`}
            onConfirm={revokeAll}
          />
        )
      }
    >
      {user.sessions.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="empty-state">
          No active session.
        </Text>
      ) : (
        <ListTable
          minWidth={760}
          verticalSpacing="xs"
          aria-label="Active sessions"
          columns={['Started', 'Method', 'IP address', 'Device', 'Last active', 'Expires']}
          actions
        >
          {user.sessions.map((s) => (
            <Table.Tr key={s.id} data-session-id={s.id}>
              <Table.Td>{formatDate(s.created_at)}</Table.Td>
              <Table.Td>
                {s.auth_method}
                {s.impersonator_id && (
                  <Badge ml={6} size="xs" variant="default">
                    by an admin
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{s.ip_address ?? '—'}</Table.Td>
              <Table.Td maw={260}>
                <Text size="sm" truncate="end" title={s.user_agent ?? undefined}>
                  {s.user_agent ? describeDevice(s.user_agent) : '—'}
                </Text>
              </Table.Td>
              <Table.Td>{formatDate(s.last_active_at)}</Table.Td>
              <Table.Td>{formatDate(s.expires_at)}</Table.Td>
              <Table.Td>
                <ConfirmButton
                  label="Revoke"
                  aria-label={`Revoke the session started ${formatDate(s.created_at)} (${s.id.slice(0, 8)})`}
                  title="Revoke this session?"
                  confirmLabel="Revoke session"
                  message={`The session started ${formatDate(s.created_at)}${s.ip_address ? ` from ${s.ip_address}` : ''} ends at once: its access and refresh tokens are refused from the next request.`}
                  onConfirm={() => revoke(s)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
    </Section>
  );
}

function MetadataForm({ user, onSaved }: { user: User; onSaved: () => Promise<unknown> }) {
  const api = useAdminApi();
  const [text, setText] = useState(() => metadataText(user.metadata));
  const [syntax, setSyntax] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (metadata: Record<string, unknown>) =>
      unwrap(
        api.PATCH('/v1/admin/users/{id}', {
          params: { path: { id: user.id } },
          body: { metadata },
        }),
      ),
    onSuccess: async (updated) => {
      setText(metadataText(updated.metadata));
      setSaved(true);
      await onSaved();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const parsed = parseMetadata(text);
    setSyntax(parsed.error);
    if (parsed.value) save.mutate(parsed.value);
  };
  const errors = fieldErrors(save.error, ['metadata']);
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <MetadataInput
          description="Replaces the whole object; at most 8 KiB."
          value={text}
          onChange={(v) => {
            setText(v);
            setSyntax(null);
          }}
          error={syntax ?? errors.fields.metadata}
        />
        <SaveFooter
          error={save.error}
          fields={['metadata']}
          problemTitle="Could not save the metadata"
          label="Save metadata"
          busy={save.isPending}
          saved={saved}
          savedBeside
        />
      </Stack>
    </form>
  );
}
