/**
 * The user's Activity tab: every audit event whose actor or resource is the user
 * (`GET /v1/admin/audit?user_id=`), newest first, paged — sign-ins with their method, failures
 * with their reason, locks, what admins changed (from → to), mails sent, factors removed,
 * impersonations with their reason — each with its IP address and a readable device.
 */
import { Anchor, Badge, List, Stack, Table, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import type { components } from '../../api/control-plane';
import { useAdminApi } from '../../auth/AuthContext';
import { ListTable } from '../../ui/ListTable';
import { factorName } from '../../ui/factor-names';
import { formatDate } from '../../ui/format';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { describeDevice } from './device';

type AuditEvent = components['schemas']['AuditEventResponse'];

const PAGE_SIZE = 20;

/** What happened, in words; an action not listed shows as its name. */
const ACTIONS: Record<string, string> = {
  'session.created': 'Signed in',
  'session.revoked': 'Session ended',
  'session.reauthenticated': 'Confirmed their identity',
  'user.sign_in_failed': 'Sign-in failed',
  'user.locked': 'Locked out',
  'user.created': 'Account created',
  'user.updated': 'Account changed',
  'user.deleted': 'Account deleted',
  'user.password_reset_sent': 'Password reset mail sent',
  'user.mfa_reset': 'MFA reset',
  'user.impersonated': 'Sign-in link as the user created',
  'password.reset': 'Password set by mail link',
  'password.changed': 'Password changed',
  'email.verified': 'Email verified',
  'mfa.enabled': 'Second factor added',
  'mfa.disabled': 'Second factor removed',
  'mfa.backup_codes.regenerated': 'Backup codes renewed',
  'passkey.registered': 'Passkey added',
  'passkey.deleted': 'Passkey removed',
  'passkey.removed': 'Passkey removed',
  'oauth.linked': 'Social account linked',
  'organization.member.added': 'Joined an organization',
  'organization.member.updated': 'Organization role changed',
  'organization.member.removed': 'Left an organization',
  'invitation.accepted': 'Invitation accepted',
};

/** A sign-in failure's reason word (docs/api-contract.md §13) or the passkey and social sign-in cause beside it (`error`). */
const REASONS: Record<string, string> = {
  invalid_credentials: 'wrong password or unknown account',
  disabled: 'the account is disabled',
  mfa_failed: 'wrong second-factor code',
  locked: 'the account is locked',
  rate_limited: 'too many attempts',
  invalid_assertion: 'the passkey could not be verified',
  unknown_credential: 'unknown passkey',
  challenge: 'the passkey challenge expired or was used',
  counter_regression: 'a cloned passkey (its counter went back)',
  user_handle_mismatch: 'the passkey belongs to another account',
  access_denied: 'declined at the provider',
  account_exists: 'an account with this email exists (the provider did not verify it)',
  account_disabled: 'the account is disabled',
  provider_error: 'the provider failed',
};

const METHODS: Record<string, string> = {
  password: 'password',
  mfa: 'password and second factor',
  passkey: 'passkey',
  magic_link: 'magic link',
  oauth: 'social sign-in',
  impersonation: 'an admin’s sign-in link',
  sso: 'single sign-on',
  refresh: 'refresh',
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value || '""';
  return JSON.stringify(value);
}

/** The changes of an update, one line each: `status: active → disabled`. */
function Changes({ changes }: { changes: Record<string, unknown> }) {
  return (
    <List size="sm" spacing={2} listStyleType="none" m={0} p={0}>
      {Object.entries(changes).map(([field, change]) => (
        <List.Item key={field}>
          <Text span size="sm" fw={500}>
            {field.replace(/_/g, ' ')}
          </Text>
          {': '}
          {isRecord(change) && 'from' in change
            ? `${show(change.from)} → ${show(change.to)}`
            : 'changed'}
        </List.Item>
      ))}
    </List>
  );
}

/** The part of `data` that tells this event from another of its kind. */
function details(e: AuditEvent): ReactNode {
  const d = e.data;
  const parts: ReactNode[] = [];
  const method = str(d.method) ?? (isRecord(d.session) ? str(d.session.method) : null);
  if (e.action === 'user.sign_in_failed') {
    // The passkey and social sign-in causes (`error`) say more than docs/api-contract.md §13's word (`reason`).
    const reason = str(d.error) ?? str(d.reason);
    const factor = str(d.factor);
    parts.push(
      <Text key="reason" size="sm">
        {reason ? (REASONS[reason] ?? reason) : 'no reason recorded'}
        {method && method !== 'password'
          ? ` (${factor ? factorName(factor) : (METHODS[method] ?? method)})`
          : ''}
        {reason && (
          <Text span size="xs" c="dimmed" ff="monospace">
            {' '}
            {reason}
          </Text>
        )}
      </Text>,
    );
  } else if (e.action === 'user.locked') {
    parts.push(
      <Text
        key="lock"
        size="sm"
      >{`${method === 'mfa' ? 'Second factor' : 'Password sign-in'} locked until ${formatDate(str(d.locked_until))}`}</Text>,
    );
  } else if (e.action === 'session.created' && method) {
    parts.push(<Text key="method" size="sm">{`with ${METHODS[method] ?? method}`}</Text>);
  }
  if (str(d.impersonator_id) ?? (isRecord(d.session) ? str(d.session.impersonator_id) : null))
    parts.push(
      <Badge key="imp" size="sm" variant="default">
        as the user, by an admin
      </Badge>,
    );
  if (e.action === 'user.impersonated' && str(d.reason))
    parts.push(<Text key="why" size="sm">{`Reason: ${str(d.reason)}`}</Text>);
  const factor = str(d.factor) ?? str(d.type);
  if ((e.action === 'mfa.disabled' || e.action === 'mfa.enabled') && factor)
    parts.push(
      <Text key="factor" size="sm">
        {factorName(factor)}
      </Text>,
    );
  if (e.action === 'user.mfa_reset') {
    const list = Array.isArray(d.factors)
      ? d.factors.filter((f): f is string => typeof f === 'string').map(factorName)
      : [];
    const passkeys = typeof d.passkeys === 'number' ? d.passkeys : 0;
    parts.push(
      <Text key="reset" size="sm">
        {[list.join(', '), passkeys ? `${passkeys} passkey${passkeys === 1 ? '' : 's'}` : '']
          .filter(Boolean)
          .join('; ') || 'nothing to remove'}
      </Text>,
    );
  }
  if (e.action === 'session.revoked' && str(d.reason))
    parts.push(
      <Text key="rev" size="sm">
        {str(d.reason)!.replace(/_/g, ' ')}
      </Text>,
    );
  if (isRecord(d.changes) && Object.keys(d.changes).length > 0)
    parts.push(<Changes key="changes" changes={d.changes} />);
  // `status: active` sent for an active user changes nothing but clears any lockout (Unlock).
  else if (e.action === 'user.updated' && d.status === 'active' && d.previous_status === 'active')
    parts.push(
      <Text key="unlock" size="sm">
        unlocked (any lockout cleared)
      </Text>,
    );
  if (e.action === 'user.created' && typeof d.invitation_sent === 'boolean')
    parts.push(
      <Text key="inv" size="sm">
        {d.invitation_sent
          ? 'invitation mailed'
          : d.password_set
            ? 'with a password'
            : 'without a password'}
      </Text>,
    );
  return parts.length ? (
    <Stack gap={2}>{parts}</Stack>
  ) : (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

/** Who did it: the user themself, an admin (by email, linked), an API key or Gatehouse. */
function Actor({ event, userId }: { event: AuditEvent; userId: string }) {
  const api = useAdminApi();
  const adminId =
    event.actor_type === 'admin' && event.actor_id && event.actor_id !== userId
      ? event.actor_id
      : null;
  const admin = useQuery({
    queryKey: ['user', adminId, 'name'],
    queryFn: () => unwrap(api.GET('/v1/admin/users/{id}', { params: { path: { id: adminId! } } })),
    enabled: adminId !== null,
    staleTime: 5 * 60_000,
    select: (u) => u.email,
  });
  if (event.actor_id === userId || (event.actor_type === 'user' && !event.actor_id))
    return (
      <Text span size="sm">
        the user
      </Text>
    );
  if (adminId) {
    return (
      <Anchor component={Link} to={`/users/${adminId}`} size="sm">
        {admin.data ?? `admin ${adminId.slice(0, 8)}`}
      </Anchor>
    );
  }
  if (event.actor_type === 'api_key')
    return (
      <Text span size="sm">
        an API key
      </Text>
    );
  if (event.actor_type === 'system')
    return (
      <Text span size="sm">
        Gatehouse
      </Text>
    );
  return (
    <Text span size="sm">
      {event.actor_type}
    </Text>
  );
}

export function UserActivity({
  userId,
  page,
  onPage,
}: {
  userId: string;
  page: number;
  onPage: (page: number) => void;
}) {
  const api = useAdminApi();
  const query = useQuery({
    queryKey: ['audit', { user: userId, page }],
    queryFn: () =>
      unwrap(
        api.GET('/v1/admin/audit', {
          params: { query: { user_id: userId, page, limit: PAGE_SIZE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryState
      query={query}
      label="activity"
      list
      isEmpty={(d) => d.events.length === 0}
      empty="Nothing has happened to this user yet."
    >
      {(data) => (
        <>
          <ListTable
            minWidth={860}
            striped
            verticalSpacing="xs"
            aria-label="Activity"
            columns={['When', 'What', 'Details', 'By', 'IP address', 'Device']}
          >
            {data.events.map((e) => (
              <Table.Tr key={e.id} data-action={e.action}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(e.created_at)}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {ACTIONS[e.action] ?? e.action}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {e.action}
                  </Text>
                </Table.Td>
                <Table.Td maw={340}>{details(e)}</Table.Td>
                <Table.Td>
                  <Actor event={e} userId={userId} />
                </Table.Td>
                <Table.Td>{e.ip_address ?? '—'}</Table.Td>
                <Table.Td>
                  {e.user_agent ? (
                    <Tooltip label={e.user_agent} multiline w={320} withinPortal>
                      <Text size="sm" tabIndex={0} style={{ cursor: 'help' }}>
                        {describeDevice(e.user_agent)}
                      </Text>
                    </Tooltip>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
          <Pager pagination={data.pagination} onPage={onPage} />
        </>
      )}
    </QueryState>
  );
}
