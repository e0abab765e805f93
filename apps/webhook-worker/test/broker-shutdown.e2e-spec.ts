import { BullMqJobBroker, QUEUES } from '@gatehouse/queue';
import { TcpProxy, TEST_REDIS_URL, withPort } from '@gatehouse/testing';

/**
 * A worker whose Redis stops answering mid-shutdown (connections open, nothing comes back) cannot
 * close gracefully: BullMQ's `close()` waits on a QUIT that never returns, and a second `close(true)`
 * only returns that same pending promise. The broker must still finish its shutdown within its
 * stated bound, or the process outlives its grace period and is killed with jobs half-recorded.
 */
describe('job broker shutdown while Redis hangs', () => {
  const proxy = new TcpProxy(
    Number(new URL(TEST_REDIS_URL).port || 6379),
    new URL(TEST_REDIS_URL).hostname,
  );
  beforeAll(() => proxy.start());
  afterAll(async () => {
    proxy.restore();
    await proxy.stop();
  });

  it('closes its consumers and queues within the stop bound, twice in a row', async () => {
    const broker = new BullMqJobBroker(withPort(TEST_REDIS_URL, proxy.port), 1000);
    const handled: string[] = [];
    broker.consume<{ n: number }>(
      QUEUES.webhookDeliveries,
      async (job) => {
        handled.push(job.id);
        return null;
      },
      { concurrency: 2 },
    );
    await broker.add(QUEUES.webhookDeliveries, 'probe', { n: 1 }, { removeWhenDone: true });
    const deadline = Date.now() + 10_000;
    while (!handled.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(handled).toHaveLength(1);

    proxy.blackhole();
    const started = Date.now();
    // The app's lifecycle stops consumers (module destroy) and then closes the broker (shutdown).
    await broker.stopConsumers();
    await broker.close();
    const took = Date.now() - started;
    expect(took).toBeLessThan(BullMqJobBroker.CONSUMER_STOP_MS + 2 * 1000 + 1500);
  }, 40_000);
});
