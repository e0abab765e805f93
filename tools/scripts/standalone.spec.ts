import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningStandalone, shouldRunStandalone } from './standalone';

/** A port nothing listens on, and one something does. */
async function ports(): Promise<{ closed: number; open: number; server: net.Server }> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const closed = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { closed, open: (server.address() as net.AddressInfo).port, server };
}

describe('choosing standalone mode', () => {
  it('runs standalone only when nothing is configured and nothing answers, or when forced', async () => {
    const { closed, open, server } = await ports();
    const url = (scheme: string, port: number) => `${scheme}://127.0.0.1:${port}`;
    try {
      const nothing = { databaseUrl: url('postgres', closed), redisUrl: url('redis', closed) };
      const bothUp = { databaseUrl: url('postgres', open), redisUrl: url('redis', open) };
      const pgUp = { databaseUrl: url('postgres', open), redisUrl: url('redis', closed) };
      expect(await shouldRunStandalone({}, nothing)).toBe(true);
      expect(await shouldRunStandalone({}, bothUp)).toBe(false);
      expect(await shouldRunStandalone({}, pgUp)).toBe(false);
      expect(await shouldRunStandalone({ DATABASE_URL: 'postgres://db.example/x' }, nothing)).toBe(
        false,
      );
      expect(await shouldRunStandalone({ REDIS_URL: 'redis://cache.example' }, nothing)).toBe(
        false,
      );
      expect(await shouldRunStandalone({ GATEHOUSE_STANDALONE: '1' }, bothUp)).toBe(true);
      expect(
        await shouldRunStandalone(
          { GATEHOUSE_STANDALONE: 'true', DATABASE_URL: 'postgres://db.example/x' },
          bothUp,
        ),
      ).toBe(true);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('finding the running standalone service of a data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-running-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const publish = (state: unknown) =>
    writeFileSync(
      join(dataDir, 'standalone.json'),
      typeof state === 'string' ? state : JSON.stringify(state),
    );

  it('is the address the service published while its process lives and its port answers; otherwise none', async () => {
    const { closed, open, server } = await ports();
    try {
      expect(await runningStandalone(dataDir)).toBeNull();
      publish({ port: open, pid: process.pid, password: 'pw' });
      expect(await runningStandalone(dataDir)).toEqual({
        port: open,
        pid: process.pid,
        password: 'pw',
      });
      // An address without the password it is served with cannot be used.
      publish({ port: open, pid: process.pid });
      expect(await runningStandalone(dataDir)).toBeNull();
      publish({ port: closed, pid: process.pid, password: 'pw' });
      expect(await runningStandalone(dataDir)).toBeNull();
      publish({ port: open, pid: 2 ** 22 + 1, password: 'pw' });
      expect(await runningStandalone(dataDir)).toBeNull();
      publish('{"port": ');
      expect(await runningStandalone(dataDir)).toBeNull();
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
