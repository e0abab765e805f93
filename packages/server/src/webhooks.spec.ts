import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './index';

// Signatures made by the Standard Webhooks reference library, not by our code.
const SECRET = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
const reference = new Webhook(SECRET.slice('whsec_'.length), { format: 'raw' } as never);

function delivery(body: string, at = new Date()) {
  const id = 'msg_2Lx';
  const signature = new Webhook(
    Buffer.from('a secret of thirty-two bytes!!!!').toString('base64'),
  ).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

async function refused(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(WebhookVerificationError);
}

describe('verifyWebhook', () => {
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'user.created',
    timestamp: '2026-11-29T00:00:00Z',
    tenant_id: 't',
    project_id: 'p',
    data: { user: { id: 'u' } },
  });

  it('accepts a delivery signed by the reference implementation and returns the event (Headers or plain objects)', async () => {
    expect(reference).toBeDefined();
    const headers = delivery(body);
    await expect(verifyWebhook(headers, body, SECRET)).resolves.toMatchObject({
      type: 'user.created',
      data: { user: { id: 'u' } },
    });
    await expect(
      verifyWebhook(new Headers(headers), new TextEncoder().encode(body), SECRET),
    ).resolves.toMatchObject({ id: 'evt_1' });
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(verifyWebhook(upper, body, SECRET)).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('accepts when one of several signatures is valid (secret rotation)', async () => {
    const headers = delivery(body);
    headers['webhook-signature'] =
      `v1,${Buffer.alloc(32, 1).toString('base64')} ${headers['webhook-signature']}`;
    await expect(verifyWebhook(headers, body, SECRET)).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('refuses a changed body, another secret, a missing header, an old or future timestamp', async () => {
    const headers = delivery(body);
    await refused(verifyWebhook(headers, body.replace('user.created', 'user.deleted'), SECRET));
    await refused(
      verifyWebhook(
        headers,
        body,
        `whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`,
      ),
    );
    await refused(verifyWebhook({ ...headers, 'webhook-signature': undefined }, body, SECRET));
    await refused(verifyWebhook({ ...headers, 'webhook-id': 'msg_other' }, body, SECRET));
    const old = delivery(body, new Date(Date.now() - 6 * 60_000));
    await refused(verifyWebhook(old, body, SECRET));
    await expect(
      verifyWebhook(old, body, SECRET, { toleranceSeconds: 600 }),
    ).resolves.toMatchObject({ id: 'evt_1' });
    await refused(verifyWebhook(delivery(body, new Date(Date.now() + 6 * 60_000)), body, SECRET));
    await refused(
      verifyWebhook({ ...headers, 'webhook-signature': 'v1,not base64!' }, body, SECRET),
    );
    await refused(verifyWebhook({ ...headers, 'webhook-timestamp': '12abc' }, body, SECRET));
  });
});
