import * as bcrypt from 'bcrypt';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

describe('passwords', () => {
  it('never truncates: a 100-byte password and its first 72 bytes are different passwords', async () => {
    const long = 'p'.repeat(72) + 'q'.repeat(28);
    const { hash, scheme } = await hashPassword(long, 10);
    expect(scheme).toBe('bcrypt-sha256');
    expect(await verifyPassword(long, hash, scheme)).toBe(true);
    expect(await verifyPassword(long.slice(0, 72), hash, scheme)).toBe(false);
  });

  it('normalises with NFKC before hashing', async () => {
    const { hash, scheme } = await hashPassword('ﬁsh-and-chips', 10);
    expect(await verifyPassword('fish-and-chips', hash, scheme)).toBe(true);
  });

  it('verifies plain imported $2b$ hashes and asks for an upgrade', async () => {
    const imported = await bcrypt.hash('imported-password', 10);
    expect(await verifyPassword('imported-password', imported, 'bcrypt')).toBe(true);
    expect(await verifyPassword('other-password', imported, 'bcrypt')).toBe(false);
    expect(needsRehash(imported, 'bcrypt', 10)).toBe(true);
    const { hash } = await hashPassword('x-password', 10);
    expect(needsRehash(hash, 'bcrypt-sha256', 10)).toBe(false);
    expect(needsRehash(hash, 'bcrypt-sha256', 11)).toBe(true);
  });
});
