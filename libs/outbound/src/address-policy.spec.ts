import type { PrivateUrlMode } from '@gatehouse/config';
import { refusedAddress, refusedHostname, refusedUrlHost } from './address-policy';

const MODES: PrivateUrlMode[] = ['none', 'loopback', 'any'];

/** What each mode says of an address: null (allowed) or the reason. */
const judged = (address: string) => MODES.map((mode) => refusedAddress(address, mode));

describe('refusedAddress per OAUTH/WEBHOOK_ALLOW_PRIVATE_URLS mode (none, loopback, any)', () => {
  it.each([
    ['8.8.8.8', [null, null, null]],
    ['93.184.215.14', [null, null, null]],
    ['2606:4700::1111', [null, null, null]],
    ['::ffff:8.8.8.8', [null, null, null]],
  ])('allows the public address %s everywhere', (address, expected) =>
    expect(judged(address)).toEqual(expected),
  );

  it.each([
    ['127.0.0.1', ['loopback', null, null]],
    ['127.255.10.1', ['loopback', null, null]],
    ['::1', ['loopback', null, null]],
    ['::ffff:127.0.0.1', ['loopback', null, null]],
    ['[::1]', ['loopback', null, null]],
  ])('allows the loopback address %s under loopback and any only', (address, expected) =>
    expect(judged(address)).toEqual(expected),
  );

  it.each([
    ['10.0.0.1', ['private', 'private', null]],
    ['172.16.5.4', ['private', 'private', null]],
    ['192.168.1.1', ['private', 'private', null]],
    ['::ffff:10.0.0.1', ['private', 'private', null]],
    ['fd12:3456::1', ['uniqueLocal', 'uniqueLocal', null]],
    ['100.64.0.1', ['carrierGradeNat', 'carrierGradeNat', null]],
    ['0.0.0.0', ['unspecified', 'unspecified', null]],
    ['::', ['ipv4Compatible', 'ipv4Compatible', null]],
    ['::7f00:1', ['ipv4Compatible', 'ipv4Compatible', null]],
    ['64:ff9b::a00:1', ['rfc6052', 'rfc6052', null]],
    ['224.0.0.1', ['multicast', 'multicast', null]],
    ['192.0.2.1', ['reserved', 'reserved', null]],
  ])('allows the other non-public address %s under any only', (address, expected) =>
    expect(judged(address)).toEqual(expected),
  );

  it.each([
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::169.254.169.254', 'metadata'],
    ['::a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['169.254.170.23', 'metadata'],
    ['169.254.0.23', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2:0:0:0:0:0:254', 'metadata'],
    ['fd00:ec2::23', 'metadata'],
    ['fd20:ce::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.123', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:169.254.1.1', 'linkLocal'],
  ])('refuses the cloud metadata or link-local address %s in every mode', (address, reason) => {
    expect(judged(address)).toEqual([reason, reason, reason]);
  });

  it('refuses what is not an address', () => {
    expect(judged('not an ip')).toEqual(['invalid', 'invalid', 'invalid']);
    expect(judged('')).toEqual(['invalid', 'invalid', 'invalid']);
  });
});

describe('refusedHostname', () => {
  it('refuses metadata names in every mode, whatever their case or trailing dots', () => {
    for (const name of [
      'metadata',
      'metadata.google.internal',
      'Metadata.Google.Internal.',
      'metadata.goog',
      'instance-data',
      'instance-data.ec2.internal',
      'metadata.tencentyun.com',
      '',
    ]) {
      expect({ name, refused: MODES.map((m) => refusedHostname(name, m)) }).toEqual({
        name,
        refused: [true, true, true],
      });
    }
  });

  it('refuses localhost and *.localhost unless loopback is allowed', () => {
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'api.localhost']) {
      expect({ name, refused: MODES.map((m) => refusedHostname(name, m)) }).toEqual({
        name,
        refused: [true, false, false],
      });
    }
  });

  it('leaves every other name to the check of its resolved addresses', () => {
    for (const name of ['idp.example.com', 'vm', 'metadata.example.com', 'localhost.example.com']) {
      expect({ name, refused: MODES.map((m) => refusedHostname(name, m)) }).toEqual({
        name,
        refused: [false, false, false],
      });
    }
  });
});

describe('refusedUrlHost (no DNS)', () => {
  const at = (url: string) => MODES.map((mode) => refusedUrlHost(new URL(url), mode));

  it('judges literal hosts in every spelling the URL parser normalises', () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[::ffff:7f00:1]/',
      'http://127.0.0.1./',
    ]) {
      expect({ url, refused: at(url) }).toEqual({ url, refused: [true, false, false] });
    }
    expect(at('http://[::1]:8080/x')).toEqual([true, false, false]);
    expect(at('http://0xa9fea9fe/latest/meta-data/')).toEqual([true, true, true]);
    expect(at('http://[fd00:ec2::254]/')).toEqual([true, true, true]);
    expect(at('http://10.0.0.1/')).toEqual([true, true, false]);
  });

  it('judges names without resolving them', () => {
    expect(at('http://metadata.google.internal/computeMetadata/v1/')).toEqual([true, true, true]);
    expect(at('http://localhost:3000/')).toEqual([true, false, false]);
    expect(at('https://idp.example.com/')).toEqual([false, false, false]);
  });
});
