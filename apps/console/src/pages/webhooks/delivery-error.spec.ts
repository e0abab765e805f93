import { deliveryErrorText } from './delivery-error';

describe('deliveryErrorText (why a webhook delivery failed, in words)', () => {
  it('says "connection refused" for a refused connection', () => {
    expect(
      deliveryErrorText({ error: 'connection_refused', response_status: null, duration_ms: 3 }),
    ).toMatch(/^connection refused/);
  });

  it("gives a timeout's length in whole seconds from the attempt's recorded duration", () => {
    expect(
      deliveryErrorText({ error: 'timeout', response_status: null, duration_ms: 15_004 }),
    ).toBe('timed out after 15 s without an answer');
    expect(deliveryErrorText({ error: 'timeout', response_status: null, duration_ms: null })).toBe(
      'timed out: no answer in time',
    );
  });

  it("names the receiver's status for an HTTP error and a redirect", () => {
    expect(deliveryErrorText({ error: 'http_error', response_status: 500, duration_ms: 8 })).toBe(
      'answered HTTP 500, not a 2xx',
    );
    expect(
      deliveryErrorText({ error: 'redirect_not_followed', response_status: 302, duration_ms: 8 }),
    ).toMatch(/^answered with a redirect \(HTTP 302\)/);
  });

  it('names the setting that allows a blocked address, and nothing for a success', () => {
    expect(
      deliveryErrorText({ error: 'blocked_address', response_status: null, duration_ms: 0 }),
    ).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    expect(deliveryErrorText({ error: null, response_status: 200, duration_ms: 8 })).toBeNull();
  });
});
