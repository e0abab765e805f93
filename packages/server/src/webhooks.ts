/** A delivery refused by `verifyWebhook`; answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A Gatehouse event as delivered (docs/api-contract.md §7). */
export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  timestamp: string;
  tenant_id: string;
  project_id: string;
  data: T;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (replays of old deliveries are refused); default 300. */
  toleranceSeconds?: number;
  /** The current time in ms (tests). */
  now?: number;
}

const encoder = new TextEncoder();

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-signature: v1,<base64 HMAC-SHA256 of
 * "{webhook-id}.{webhook-timestamp}.{body}">`, key = the base64 after `whsec_`) and its timestamp,
 * and returns the parsed event. `rawBody` must be the bytes as received (not re-serialised JSON).
 * Web Crypto only: runs in Node 20+, Bun, Deno and edge runtimes. The comparison is Web Crypto's own
 * HMAC verify (constant time).
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      'Missing webhook-id, webhook-timestamp or webhook-signature header.',
    );
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError('Malformed webhook-timestamp.');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError('The webhook timestamp is outside the tolerance.');

  const key = await crypto.subtle.importKey(
    'raw',
    secretBytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  // The header may carry several space-separated signatures (secret rotation); one valid v1 suffices.
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const signature = base64(value);
    if (
      signature &&
      signature.length === 32 &&
      (await crypto.subtle.verify('HMAC', key, signature, signed))
    ) {
      try {
        return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<T>;
      } catch {
        throw new WebhookVerificationError('The webhook body is not JSON.');
      }
    }
  }
  throw new WebhookVerificationError('No valid webhook signature.');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(' ') : value;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!bytes || bytes.length === 0)
    throw new TypeError('verifyWebhook: the secret must be whsec_<base64>');
  return bytes;
}

function base64(value: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
  try {
    const binary = atob(value);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}
