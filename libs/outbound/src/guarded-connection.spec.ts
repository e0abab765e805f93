import type { LookupAddress } from 'node:dns';
import type { PrivateUrlMode } from '@gatehouse/config';
import {
  guardedLookup,
  outboundTarget,
  PrivateAddressError,
  type Resolver,
} from './guarded-connection';

/** A resolver answering from a fixed table (no DNS in unit tests). */
function table(entries: Record<string, string[]>): Resolver {
  return (hostname, _options, callback) => {
    const found = entries[hostname];
    if (!found)
      return callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
        [],
      );
    callback(
      null,
      found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
}

const DNS = table({
  'public.example': ['93.184.215.14', '2606:4700::1111'],
  vm: ['127.0.0.1'],
  'rebind.example': ['93.184.215.14', '10.0.0.7'],
  'imds.example': ['169.254.169.254'],
  'private.example': ['192.168.1.9'],
});

function resolveWith(
  mode: PrivateUrlMode,
  hostname: string,
  all: boolean,
): Promise<{
  err: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}> {
  return new Promise((resolve) =>
    guardedLookup(mode, DNS)(hostname, { all }, (err, address, family) =>
      resolve({ err, address, family }),
    ),
  );
}

describe('guardedLookup: every resolved address is judged under the mode', () => {
  it('passes a name whose addresses are all allowed, in both callback shapes', async () => {
    expect(await resolveWith('none', 'public.example', false)).toEqual({
      err: null,
      address: '93.184.215.14',
      family: 4,
    });
    expect(await resolveWith('none', 'public.example', true)).toEqual({
      err: null,
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
      family: undefined,
    });
  });

  it.each([
    ['vm', ['refused', 'ok', 'ok']],
    ['rebind.example', ['refused', 'refused', 'ok']],
    ['private.example', ['refused', 'refused', 'ok']],
    ['imds.example', ['refused', 'refused', 'refused']],
  ])('judges %s per mode (none, loopback, any)', async (hostname, expected) => {
    const outcomes = [];
    for (const mode of ['none', 'loopback', 'any'] as const) {
      const { err } = await resolveWith(mode, hostname, true);
      outcomes.push(
        err === null ? 'ok' : err instanceof PrivateAddressError ? 'refused' : err.message,
      );
    }
    expect(outcomes).toEqual(expected);
  });

  it('passes resolution errors through unchanged', async () => {
    const { err } = await resolveWith('none', 'nx.example', false);
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('outboundTarget', () => {
  it('builds request options that always carry the guarded lookup, for every mode', () => {
    for (const mode of ['none', 'loopback', 'any'] as const) {
      const t = outboundTarget('https://Hooks.Example.com:8443/in?x=1', mode);
      expect(t).toEqual({
        secure: true,
        host: 'hooks.example.com:8443',
        options: {
          protocol: 'https:',
          hostname: 'hooks.example.com',
          port: '8443',
          path: '/in?x=1',
          lookup: expect.any(Function),
        },
      });
      expect(t.options.lookup).toBe(guardedLookup(mode));
    }
    expect(outboundTarget('http://[::1]/x', 'loopback')).toMatchObject({
      secure: false,
      host: '[::1]',
      options: { hostname: '::1', port: 80 },
    });
  });

  it('refuses a literal address or a blocked name before any socket is opened', () => {
    expect(() => outboundTarget('http://127.0.0.1:4000/', 'none')).toThrow(PrivateAddressError);
    expect(() => outboundTarget('http://localhost/', 'none')).toThrow(PrivateAddressError);
    expect(() => outboundTarget('http://10.0.0.1/', 'loopback')).toThrow(PrivateAddressError);
    expect(() => outboundTarget('http://169.254.169.254/latest/meta-data/', 'any')).toThrow(
      PrivateAddressError,
    );
    expect(() => outboundTarget('http://metadata.google.internal/', 'any')).toThrow(
      PrivateAddressError,
    );
    expect(() => outboundTarget('http://[fd00:ec2::254]/', 'any')).toThrow(PrivateAddressError);
  });

  it('refuses schemes other than http and https', () => {
    expect(() => outboundTarget('file:///etc/passwd', 'any')).toThrow('unsupported URL scheme');
    expect(() => outboundTarget('gopher://127.0.0.1:6379/_FLUSHALL', 'any')).toThrow(
      'unsupported URL scheme',
    );
  });
});
