import { Webhook as StandardWebhook } from 'standardwebhooks';
import { loadConfig } from '@gatehouse/config';
import {
  newWebhookSecret,
  openWebhookSecret,
  sealWebhookSecret,
  signWebhook,
} from './webhook-signing';
import { webhookBody } from './webhook-payload';

describe('webhook signing (Standard Webhooks)', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('signs id.timestamp.body so that the standardwebhooks library verifies it', () => {
    const secret = newWebhookSecret();
    const body = webhookBody({
      id: '0b5f7b4e-9c1e-4a53-a1ea-1d1c0a4b9f10',
      type: 'user.created',
      tenantId: 't',
      projectId: null,
      createdAt: new Date('2030-01-02T03:04:05.000Z'),
      payload: { user: { id: 'u' } },
    });
    expect(JSON.parse(body)).toEqual({
      id: '0b5f7b4e-9c1e-4a53-a1ea-1d1c0a4b9f10',
      type: 'user.created',
      timestamp: '2030-01-02T03:04:05.000Z',
      tenant_id: 't',
      project_id: null,
      data: { user: { id: 'u' } },
    });
    const ts = Math.floor(Date.now() / 1000);
    const signature = signWebhook(secret, 'msg_1', ts, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signature,
    };
    expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new StandardWebhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('seals secrets with AES-GCM bound to the webhook id', () => {
    const config = loadConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') });
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret(config, 'w1', secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(openWebhookSecret(config, 'w1', sealed)).toBe(secret);
    expect(() => openWebhookSecret(config, 'w2', sealed)).toThrow();
  });
});
