import { ApiProblem, fieldErrors, networkProblem, problemOf } from './problem';

const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name] ?? null,
});

describe('problem mapping (what a screen shows when a call fails)', () => {
  it('reads slug, detail, traceId, errors and Retry-After from a problem document', () => {
    const p = problemOf(
      429,
      {
        type: 'https://gatehouse.dev/problems/rate-limited',
        title: 'Too Many Requests',
        status: 429,
        detail: 'Slow down.',
        traceId: 'a'.repeat(32),
        errors: { email: ['taken', 7] },
      },
      headers({ 'Retry-After': '12' }),
    );
    expect(p).toBeInstanceOf(ApiProblem);
    expect(p.slug).toBe('rate-limited');
    expect(p.title).toBe('Too Many Requests');
    expect(p.detail).toBe('Slow down.');
    expect(p.traceId).toBe('a'.repeat(32));
    expect(p.retryAfterSeconds).toBe(12);
    expect(p.errors).toEqual({ email: ['taken'] });
  });

  it('a body that is not a problem document still gives a readable error, and a network failure has status 0', () => {
    const p = problemOf(502, '<html>Bad gateway</html>');
    expect(p.status).toBe(502);
    expect(p.detail).toBe('<html>Bad gateway</html>');
    expect(p.traceId).toBeNull();
    expect(problemOf(500, null).detail).toBe('The server answered with an error.');
    const offline = networkProblem(new TypeError('Failed to fetch'));
    expect(offline.status).toBe(0);
    expect(offline.slug).toBe('network-error');
    expect(offline.detail).toContain('Failed to fetch');
  });

  it('maps dotted field errors onto the longest matching form field; the rest stays for the form', () => {
    const p = new ApiProblem(400, {
      errors: {
        name: ['must not be empty'],
        'settings.access_token_ttl_seconds': ['must be at least 60'],
        'settings.oauth_providers.google.client_id': ['must be a string'],
        'allowed_origins.1': ['must be an origin'],
        'allowed_origins[2]': ['must be an origin'],
        unknown: ['is not allowed'],
      },
    });
    const mapped = fieldErrors(p, [
      'name',
      'settings',
      'settings.access_token_ttl_seconds',
      'allowed_origins',
    ]);
    expect(mapped.fields).toEqual({
      name: 'must not be empty',
      'settings.access_token_ttl_seconds': 'must be at least 60',
      settings: 'oauth_providers.google.client_id: must be a string',
      allowed_origins: 'item 2: must be an origin; item 3: must be an origin',
    });
    expect(mapped.other).toEqual(['unknown: is not allowed']);
    expect(fieldErrors(new Error('x'), ['name'])).toEqual({ fields: {}, other: [] });
  });
});
