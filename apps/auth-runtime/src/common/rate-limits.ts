import type { EndpointRateLimit } from '@gatehouse/http';

/**
 * The auth runtime's endpoint limits, with the route each belongs to: the service's (docs/api-contract.md §3),
 * and magic-link sends per (project, email), verification and email-change mails per user against
 * mail bombing, organizations a user creates per hour (not in that table; docs/decisions.md).
 */
export const RATE_LIMITS = {
  signIn: { name: 'sign-in', limit: 5, windowMs: 60_000, route: 'POST /v1/auth/sign-in' },
  signUp: { name: 'sign-up', limit: 3, windowMs: 60_000, route: 'POST /v1/auth/sign-up' },
  forgot: {
    name: 'password-forgot',
    limit: 3,
    windowMs: 3_600_000,
    route: 'POST /v1/auth/password/forgot',
  },
  magicLink: {
    name: 'magic-link',
    limit: 5,
    windowMs: 15 * 60_000,
    route: 'POST /v1/auth/magic-link/send',
  },
  verifyEmail: {
    name: 'verify-email',
    limit: 3,
    windowMs: 3_600_000,
    route: 'POST /v1/auth/verify-email/send',
  },
  emailChange: {
    name: 'email-change',
    limit: 3,
    windowMs: 3_600_000,
    route: 'POST /v1/auth/email/change',
  },
  organizationCreate: {
    name: 'organization-create',
    limit: 10,
    windowMs: 3_600_000,
    route: 'POST /v1/auth/organizations',
  },
  organizationInvite: {
    name: 'organization-invite',
    limit: 30,
    windowMs: 3_600_000,
    route: 'POST /v1/auth/organizations/{id}/invitations',
  },
} satisfies Record<string, EndpointRateLimit>;
