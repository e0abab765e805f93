/**
 * Why a delivery attempt failed, in words. The control plane names the cause (docs/api-contract.md §13) from
 * what the webhook worker recorded: the receiver's status when it answered, else the connection
 * error (`ECONNREFUSED`, `timeout after 15000 ms`, `ENOTFOUND`, a certificate error, the SSRF
 * guard's refusal). A timeout's length is the attempt's duration: the worker ends the request
 * when WEBHOOK_TIMEOUT_MS has passed and records that time.
 */
import type { components } from '../../api/control-plane';

type Detail = Pick<
  components['schemas']['WebhookDeliveryDetailResponse'],
  'error' | 'response_status' | 'duration_ms'
>;

export function deliveryErrorText(d: Detail): string | null {
  switch (d.error) {
    case null:
      return null;
    case 'connection_refused':
      return 'connection refused: nothing accepted the connection at that host and port (or it was reset before an answer)';
    case 'timeout':
      return d.duration_ms === null
        ? 'timed out: no answer in time'
        : `timed out after ${Math.round(d.duration_ms / 1000)} s without an answer`;
    case 'dns_failure':
      return 'the host name could not be resolved (DNS)';
    case 'tls_error':
      return 'TLS failed: the certificate was not trusted or the handshake broke off';
    case 'blocked_address':
      return 'not sent: the host is or resolves to a loopback, private, link-local or metadata address (WEBHOOK_ALLOW_PRIVATE_URLS allows it)';
    case 'redirect_not_followed':
      return `answered with a redirect (HTTP ${d.response_status ?? '3xx'}), which is not followed: register the final URL`;
    case 'http_error':
      return `answered HTTP ${d.response_status ?? '?'}, not a 2xx`;
  }
}
