import { Logger } from '@nestjs/common';
import { MemoryJobBroker } from './memory-job-broker';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MemoryJobBroker', () => {
  it('runs jobs, deduplicates by job id and respects concurrency', async () => {
    const broker = new MemoryJobBroker();
    const seen: string[] = [];
    let active = 0;
    let maxActive = 0;
    broker.consume<{ n: number }>(
      'mail',
      async (job) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await wait(20);
        seen.push(`${job.name}:${job.data.n}`);
        active -= 1;
      },
      { concurrency: 2 },
    );
    await broker.add('mail', 'a', { n: 1 }, { jobId: 'same' });
    await broker.add('mail', 'a', { n: 2 }, { jobId: 'same' });
    await broker.addBulk('mail', [
      { name: 'b', data: { n: 3 } },
      { name: 'c', data: { n: 4 } },
    ]);
    await wait(150);
    expect(seen.sort()).toEqual(['a:1', 'b:3', 'c:4']);
    expect(maxActive).toBe(2);
    await broker.close();
  });

  it('retries a failing job with exponential backoff, then fails it', async () => {
    const broker = new MemoryJobBroker();
    const times: number[] = [];
    broker.consume(
      'sms',
      async () => {
        times.push(Date.now());
        throw new Error('gateway down');
      },
      { concurrency: 1 },
    );
    await broker.add(
      'sms',
      'x',
      {},
      { attempts: 3, backoff: { type: 'exponential', delayMs: 30 } },
    );
    await wait(250);
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(25);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(55);
    expect(await broker.counts('sms')).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    await broker.close();
  });

  it('logs a job that failed its last attempt as an error and keeps it in the failed list, as BullMQ keeps its failed set', async () => {
    const errors: string[] = [];
    const spy = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation((message: unknown) => void errors.push(String(message)));
    try {
      const broker = new MemoryJobBroker();
      let calls = 0;
      broker.consume(
        'mail',
        async () => {
          calls += 1;
          throw new Error('451 try again later');
        },
        { concurrency: 1 },
      );
      await broker.add(
        'mail',
        'magic-link',
        {},
        { jobId: 'm1', attempts: 2, backoff: { type: 'fixed', delayMs: 10 } },
      );
      await broker.add('mail', 'reset', {}, { jobId: 'm2', removeWhenDone: true });
      await wait(150);
      expect(calls).toBe(3);
      expect(errors.sort()).toEqual([
        'mail job magic-link m1 failed after 2 attempt(s): 451 try again later',
        'mail job reset m2 failed after 1 attempt(s): 451 try again later',
      ]);
      // removeWhenDone forgets it (BullMQ's removeOnFail), the other is kept with its reason.
      expect(broker.failedJobs('mail')).toEqual([
        {
          id: 'm1',
          name: 'magic-link',
          attemptsMade: 2,
          failedReason: '451 try again later',
          failedAt: expect.any(Date),
        },
      ]);
      expect(await broker.counts('mail')).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
      expect(await broker.has('mail', 'm1')).toBe(false);
      await broker.close();
    } finally {
      spy.mockRestore();
    }
  });

  it('holds delayed jobs until their time and waits for active jobs on stop', async () => {
    const broker = new MemoryJobBroker();
    const done: string[] = [];
    broker.consume(
      'webhook-deliveries',
      async (job) => {
        await wait(40);
        done.push(job.id);
      },
      { concurrency: 5 },
    );
    await broker.add('webhook-deliveries', 'd', {}, { jobId: 'later', delayMs: 60 });
    await broker.add('webhook-deliveries', 'd', {}, { jobId: 'now' });
    expect(await broker.has('webhook-deliveries', 'later')).toBe(true);
    expect((await broker.counts('webhook-deliveries')).delayed).toBe(1);
    await wait(10);
    await broker.stopConsumers();
    expect(done).toEqual(['now']);
    await broker.close();
  });
});
