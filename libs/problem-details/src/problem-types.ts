/** The error catalog of docs/api-contract.md §4: slug -> status and title. */
export const PROBLEM_TYPES = {
  'validation-error': { status: 400, title: 'Validation Error' },
  'bad-request': { status: 400, title: 'Bad Request' },
  'invalid-json': { status: 400, title: 'Invalid JSON' },
  'invalid-token': { status: 400, title: 'Invalid Token' },
  unauthenticated: { status: 401, title: 'Unauthenticated' },
  'invalid-credentials': { status: 401, title: 'Invalid Credentials' },
  'invalid-code': { status: 401, title: 'Invalid Code' },
  forbidden: { status: 403, title: 'Forbidden' },
  'account-disabled': { status: 403, title: 'Account Disabled' },
  'reauthentication-required': { status: 403, title: 'Reauthentication Required' },
  'mfa-required': { status: 403, title: 'MFA Required' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'headers-too-large': { status: 431, title: 'Request Header Fields Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  'account-locked': { status: 429, title: 'Account Locked' },
  'rate-limited': { status: 429, title: 'Too Many Requests' },
  'internal-error': { status: 500, title: 'Internal Server Error' },
  'service-unavailable': { status: 503, title: 'Service Unavailable' },
} as const;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

/** Slug for a bare HTTP status (framework errors that carry only a status). */
export function slugForStatus(status: number): ProblemSlug {
  switch (status) {
    case 400:
      return 'validation-error';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 405:
      return 'method-not-allowed';
    case 409:
      return 'conflict';
    case 413:
      return 'payload-too-large';
    case 415:
      return 'unsupported-media-type';
    case 431:
      return 'headers-too-large';
    case 429:
      return 'rate-limited';
    case 503:
      return 'service-unavailable';
    default:
      return 'internal-error';
  }
}
