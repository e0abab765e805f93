import { randomBytes, randomUUID } from 'node:crypto';
import { RefreshTokenCodec } from './refresh-token';

describe('RefreshTokenCodec', () => {
  const codec = new RefreshTokenCodec(randomBytes(32));
  const sessionId = randomUUID();

  it('issues 91-character base64url tokens that name their session and generation', () => {
    const token = codec.issue(sessionId, 7);
    expect(token).toMatch(/^[A-Za-z0-9_-]{91}$/);
    expect(codec.read(token)).toEqual({ sessionId, generation: 7 });
    expect(codec.read(codec.issue(sessionId, 0))).toEqual({ sessionId, generation: 0 });
    expect(codec.read(codec.issue(sessionId, 0x7fff_ffff))).toEqual({
      sessionId,
      generation: 0x7fff_ffff,
    });
  });

  it('carries 256 random bits: two tokens of the same session and generation differ in their secret', () => {
    const a = Buffer.from(codec.issue(sessionId, 1), 'base64url');
    const b = Buffer.from(codec.issue(sessionId, 1), 'base64url');
    expect(a.subarray(0, 20)).toEqual(b.subarray(0, 20));
    expect(a.subarray(20, 52).equals(b.subarray(20, 52))).toBe(false);
    expect(a.subarray(20, 52)).toHaveLength(32);
  });

  it('refuses a token whose session, generation, secret or tag was changed', () => {
    const raw = Buffer.from(codec.issue(sessionId, 3), 'base64url');
    for (const offset of [0, 15, 16, 19, 20, 51, 52, 67]) {
      const changed = Buffer.from(raw);
      changed[offset] ^= 0x01;
      expect(codec.read(changed.toString('base64url'))).toBeNull();
    }
    expect(codec.read(raw.toString('base64url'))).toEqual({ sessionId, generation: 3 });
  });

  it('refuses a well-formed token tagged under another key', () => {
    const other = new RefreshTokenCodec(randomBytes(32));
    expect(codec.read(other.issue(sessionId, 1))).toBeNull();
  });

  it('refuses malformed text: wrong length, other alphabets, stray bits in the last character', () => {
    const token = codec.issue(sessionId, 1);
    expect(codec.read(token.slice(0, 90))).toBeNull();
    expect(codec.read(`${token}A`)).toBeNull();
    expect(codec.read(randomBytes(32).toString('base64url'))).toBeNull();
    expect(codec.read(`${token.slice(0, 90)}=`)).toBeNull();
    expect(codec.read(token.replace(/.$/, (c) => (c === '+' ? '/' : '+')))).toBeNull();
    expect(codec.read('')).toBeNull();
    // 91 characters carry 546 bits for 544: a last character differing only in the 2 spare bits.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token[90]);
    const twin = `${token.slice(0, 90)}${alphabet[last ^ 0x01]}`;
    expect(Buffer.from(twin, 'base64url')).toEqual(Buffer.from(token, 'base64url'));
    expect(codec.read(twin)).toBeNull();
  });

  it("only issues for a lower-case UUID and a generation that fits the chain's integer column", () => {
    expect(() => codec.issue(sessionId.toUpperCase(), 0)).toThrow(TypeError);
    expect(() => codec.issue('not-a-uuid', 0)).toThrow(TypeError);
    for (const generation of [-1, 0x8000_0000, 0x1_0000_0000, 1.5, Number.NaN])
      expect(() => codec.issue(sessionId, generation)).toThrow(RangeError);
  });
});
