import { WEBHOOK_PRIVATE_ADDRESS_MESSAGE } from '@gatehouse/outbound';
import { checkWebhookUrl, parseWebhookUrl } from './webhook-url';

const publicDns = async () => ['93.184.215.14'];
const refuse = { mode: 'none' as const, resolve: publicDns };

describe('webhook URL checks (SSRF)', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://0/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/',
    'http://localhost/',
    'http://localhost./',
    'http://LOCALHOST:8080/',
    'http://api.localhost/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'https://224.0.0.1/',
  ])('refuses %s', async (url) => {
    expect(await checkWebhookUrl(url, refuse)).toEqual({
      ok: false,
      message: WEBHOOK_PRIVATE_ADDRESS_MESSAGE,
    });
  });

  it('refuses names that resolve to a private address, judged on every address', async () => {
    expect(
      await checkWebhookUrl('https://rebind.example/', {
        mode: 'none',
        resolve: async () => ['93.184.215.14', '10.1.2.3'],
      }),
    ).toEqual({
      ok: false,
      message: WEBHOOK_PRIVATE_ADDRESS_MESSAGE,
    });
    expect(
      await checkWebhookUrl('https://v6.example/', { mode: 'none', resolve: async () => ['::1'] }),
    ).toMatchObject({ ok: false });
  });

  it('accepts public addresses and names, and normalises the URL', async () => {
    expect(await checkWebhookUrl('https://Hooks.Example.com/in?x=1', refuse)).toEqual({
      ok: true,
      url: 'https://hooks.example.com/in?x=1',
    });
    expect(await checkWebhookUrl('http://93.184.215.14:8080/hook', refuse)).toEqual({
      ok: true,
      url: 'http://93.184.215.14:8080/hook',
    });
    expect(await checkWebhookUrl('https://[2606:4700::1111]/', refuse)).toEqual({
      ok: true,
      url: 'https://[2606:4700::1111]/',
    });
  });

  it('accepts a name that does not resolve now (the worker checks again at every attempt)', async () => {
    const nx = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(
      await checkWebhookUrl('https://not-yet.example/', { mode: 'none', resolve: nx }),
    ).toEqual({ ok: true, url: 'https://not-yet.example/' });
  });

  it('allows loopback under loopback, private addresses under any, and never link-local or metadata endpoints', async () => {
    const at = (url: string, mode: 'none' | 'loopback' | 'any', resolve = publicDns) =>
      checkWebhookUrl(url, { mode, resolve });
    const refused = { ok: false, message: WEBHOOK_PRIVATE_ADDRESS_MESSAGE };
    expect(await at('http://127.0.0.1:9000/hook', 'loopback')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:9000/hook',
    });
    expect(
      await at('http://localhost:9000/', 'loopback', async () => ['127.0.0.1', '::1']),
    ).toEqual({ ok: true, url: 'http://localhost:9000/' });
    expect(await at('http://10.0.0.1/', 'loopback')).toEqual(refused);
    expect(await at('http://169.254.169.254/', 'loopback')).toEqual(refused);
    expect(
      await at('https://rebind.example/', 'loopback', async () => ['127.0.0.1', '10.0.0.1']),
    ).toEqual(refused);
    expect(await at('http://10.0.0.1/', 'any')).toEqual({ ok: true, url: 'http://10.0.0.1/' });
    expect(await at('http://localhost:9000/', 'any', async () => ['127.0.0.1'])).toEqual({
      ok: true,
      url: 'http://localhost:9000/',
    });
    expect(await at('http://169.254.169.254/', 'any')).toEqual(refused);
    expect(await at('http://metadata.google.internal/', 'any')).toEqual(refused);
    expect(await at('https://imds.example/', 'any', async () => ['169.254.169.254'])).toEqual(
      refused,
    );
  });

  it.each([
    ['ftp://example.com/', 'must use http or https'],
    ['file:///etc/passwd', 'must use http or https'],
    ['javascript:alert(1)', 'must use http or https'],
    ['example.com/hook', 'must be an absolute http or https URL'],
    ['', 'must be an absolute http or https URL'],
    ['https://user:pass@example.com/', 'must not contain credentials'],
    ['https://example.com:0/', 'must not use port 0'],
    ['http://example.com:00/hook', 'must not use port 0'],
    ['https://example.com/a b', 'must not contain whitespace or control characters'],
    [`https://example.com/${'a'.repeat(2048)}`, 'must be at most 2048 characters'],
  ])('refuses the malformed URL %s', (url, message) => {
    expect(parseWebhookUrl(url)).toEqual({ ok: false, message });
  });
});
