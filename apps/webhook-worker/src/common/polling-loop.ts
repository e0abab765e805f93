import type {
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
} from '@nestjs/common';

/**
 * Runs `step` again and again on a timer: at once when it reports more work, else after `idleMs`.
 * Never two steps at a time; errors are logged (at most every 30 s) and the loop goes on.
 * `stop()` cancels the timer and waits for the step in progress, for a clean shutdown.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private lastErrorLog = 0;

  constructor(
    private readonly name: string,
    private readonly idleMs: number,
    private readonly step: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }, ms);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    let more = false;
    try {
      more = await this.step();
    } catch (err) {
      if (Date.now() - this.lastErrorLog > 30_000) {
        this.lastErrorLog = Date.now();
        this.logger.warn(
          `${this.name} failed, will retry: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    this.schedule(more ? 0 : this.idleMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** A worker service that runs one PollingLoop from the app's start until its shutdown. */
export abstract class PollingService
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  protected abstract readonly loop: PollingLoop;

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
