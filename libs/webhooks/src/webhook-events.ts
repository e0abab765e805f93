/** The event sent by `POST /v1/admin/webhooks/{id}/test`; it goes only to that webhook. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * Event types a webhook may subscribe to (docs/api-contract.md §7: event names are the audit actions). A webhook
 * lists some of these, or `"*"` for every event of its tenant (except `webhook.test`, which is
 * only ever sent to the webhook it was requested for; the worker's relay applies this rule in SQL).
 * New audit actions are added here.
 */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'users.imported',
  'users.exported',
  'users.exported_with_secrets',
  'user.locked',
  'user.sign_in_failed',
  'user.password_reset_sent',
  'user.mfa_reset',
  'user.impersonated',
  'session.created',
  'session.revoked',
  'session.reauthenticated',
  'email.verified',
  'password.reset',
  'password.changed',
  'mfa.enabled',
  'mfa.disabled',
  'mfa.backup_codes.regenerated',
  'passkey.registered',
  'passkey.deleted',
  'passkey.removed',
  'oauth.linked',
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'organization.member.added',
  'organization.member.updated',
  'organization.member.removed',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'project.created',
  'project.updated',
  'project.deleted',
  'api_key.created',
  'api_key.revoked',
  'signing_key.rotated',
  'signing_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'oauth_client.created',
  'oauth_client.updated',
  'oauth_client.deleted',
  'oauth_client.secret_rotated',
  'api_resource.created',
  'api_resource.updated',
  'api_resource.deleted',
  'oauth_grant.created',
  'oauth_grant.revoked',
  'oauth_token.failed',
  WEBHOOK_TEST_EVENT,
] as const;

export const WEBHOOK_ALL_EVENTS = '*';
