import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';

/**
 * Work done after the response is sent, so that endpoints answering "the same way for known and
 * unknown accounts" also answer in the same time. Shutdown waits for what is in flight.
 */
@Injectable()
export class BackgroundTasks implements OnApplicationShutdown {
  private readonly logger = new Logger('BackgroundTasks');
  private readonly pending = new Set<Promise<void>>();

  run(name: string, task: () => Promise<void>): void {
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) =>
        this.logger.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves when every task started so far has finished (tests and shutdown). */
  async drain(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
  }
}
