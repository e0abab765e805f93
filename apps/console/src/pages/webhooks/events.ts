/** The webhook event catalogue (`WebhookResponse.events` of the generated types) as options of a multi-select, grouped by resource. */
import type { components } from '../../api/control-plane';

export type WebhookEvent = components['schemas']['WebhookResponse']['events'][number];
export type EventType = Exclude<WebhookEvent, '*'>;

export const ALL_EVENTS = '*' satisfies WebhookEvent;

// A Record over the generated union: the compiler fails when the API gains or drops an event type.
const GROUPS: Record<EventType, string> = {
  'user.created': 'Users',
  'user.updated': 'Users',
  'user.deleted': 'Users',
  'user.locked': 'Users',
  'user.sign_in_failed': 'Users',
  'user.password_reset_sent': 'Users',
  'user.mfa_reset': 'Users',
  'user.impersonated': 'Users',
  'users.imported': 'Users',
  'users.exported': 'Users',
  'users.exported_with_secrets': 'Users',
  'session.created': 'Sessions',
  'session.revoked': 'Sessions',
  'session.reauthenticated': 'Sessions',
  'email.verified': 'Credentials',
  'password.reset': 'Credentials',
  'password.changed': 'Credentials',
  'mfa.enabled': 'Credentials',
  'mfa.disabled': 'Credentials',
  'mfa.backup_codes.regenerated': 'Credentials',
  'passkey.registered': 'Credentials',
  'passkey.deleted': 'Credentials',
  'passkey.removed': 'Credentials',
  'oauth.linked': 'Credentials',
  'organization.created': 'Organizations',
  'organization.updated': 'Organizations',
  'organization.deleted': 'Organizations',
  'role.created': 'Organizations',
  'role.updated': 'Organizations',
  'role.deleted': 'Organizations',
  'permission.created': 'Organizations',
  'permission.deleted': 'Organizations',
  'organization.member.added': 'Organizations',
  'organization.member.updated': 'Organizations',
  'organization.member.removed': 'Organizations',
  'organization.domain.created': 'Organizations',
  'organization.domain.verified': 'Organizations',
  'organization.domain.updated': 'Organizations',
  'organization.domain.deleted': 'Organizations',
  'sso_connection.created': 'Organizations',
  'sso_connection.updated': 'Organizations',
  'sso_connection.deleted': 'Organizations',
  'invitation.created': 'Organizations',
  'invitation.accepted': 'Organizations',
  'invitation.revoked': 'Organizations',
  'project.created': 'Projects',
  'project.deleted': 'Projects',
  'project.updated': 'Projects',
  'api_key.created': 'Projects',
  'api_key.revoked': 'Projects',
  'signing_key.rotated': 'Projects',
  'signing_key.revoked': 'Projects',
  'webhook.created': 'Webhooks',
  'webhook.updated': 'Webhooks',
  'webhook.secret_rotated': 'Webhooks',
  'webhook.deleted': 'Webhooks',
  'webhook.test': 'Webhooks',
  'oauth_client.created': 'OpenID Connect',
  'oauth_client.updated': 'OpenID Connect',
  'oauth_client.deleted': 'OpenID Connect',
  'oauth_client.secret_rotated': 'OpenID Connect',
  'api_resource.created': 'OpenID Connect',
  'api_resource.updated': 'OpenID Connect',
  'api_resource.deleted': 'OpenID Connect',
  'oauth_grant.created': 'OpenID Connect',
  'oauth_grant.revoked': 'OpenID Connect',
  'oauth_token.failed': 'OpenID Connect',
};

export const EVENT_TYPES = Object.keys(GROUPS) as EventType[];

/** Options of Mantine's MultiSelect: "all events" first, then the types by resource. */
export const EVENT_OPTIONS = [
  { group: 'All', items: [{ value: ALL_EVENTS, label: 'All events (*)' }] },
  ...[...new Set(Object.values(GROUPS))].map((group) => ({
    group,
    items: EVENT_TYPES.filter((t) => GROUPS[t] === group),
  })),
];

/** A selection change: choosing "*" replaces the others, choosing a type drops "*". */
export function nextEvents(previous: readonly string[], next: string[]): WebhookEvent[] {
  const added = next.filter((e) => !previous.includes(e));
  if (added.includes(ALL_EVENTS)) return [ALL_EVENTS];
  return next.filter((e) => e !== ALL_EVENTS) as WebhookEvent[];
}

export function describeEvents(events: readonly string[]): string {
  return events.includes(ALL_EVENTS) ? 'All events' : events.join(', ');
}
