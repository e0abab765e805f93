import { deliveryError } from './webhook-delivery.response';

describe('deliveryError (docs/api-contract.md §13 names of a failed attempt)', () => {
  const failed = (responseStatus: number | null, error: string | null) =>
    deliveryError({ status: 'failed', responseStatus, error });

  it('is null for a success and an attempt not yet made', () => {
    expect(deliveryError({ status: 'succeeded', responseStatus: 200, error: null })).toBeNull();
    expect(deliveryError({ status: 'pending', responseStatus: null, error: null })).toBeNull();
  });

  it('names an answer by its status: 3xx redirect_not_followed, anything else http_error', () => {
    expect(failed(301, 'HTTP 301')).toBe('redirect_not_followed');
    expect(failed(308, 'HTTP 308')).toBe('redirect_not_followed');
    expect(failed(500, 'HTTP 500')).toBe('http_error');
    expect(failed(410, 'HTTP 410')).toBe('http_error');
    expect(failed(404, 'HTTP 404')).toBe('http_error');
  });

  it('names a connection error by what the worker recorded', () => {
    expect(
      failed(
        null,
        'refused address: the host is or resolves to a loopback, private, link-local or metadata address',
      ),
    ).toBe('blocked_address');
    expect(failed(null, 'timeout after 1500 ms')).toBe('timeout');
    expect(failed(null, 'ETIMEDOUT')).toBe('timeout');
    expect(failed(null, 'ENOTFOUND')).toBe('dns_failure');
    expect(failed(null, 'EAI_AGAIN')).toBe('dns_failure');
    expect(failed(null, 'DEPTH_ZERO_SELF_SIGNED_CERT')).toBe('tls_error');
    expect(failed(null, 'ERR_TLS_CERT_ALTNAME_INVALID')).toBe('tls_error');
    expect(failed(null, 'CERT_HAS_EXPIRED')).toBe('tls_error');
    expect(failed(null, 'ECONNREFUSED')).toBe('connection_refused');
    expect(failed(null, 'ECONNRESET')).toBe('connection_refused');
  });
});
