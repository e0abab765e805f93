import { ProviderHttpError, type CallbackGuard } from '../provider-http';

export type StrategyOutcome<T> =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; user: T }
  | { kind: 'fail'; info: unknown }
  | { kind: 'error'; error: unknown };

interface RunnableStrategy {
  authenticate(req: unknown, options?: unknown): void;
}

interface AugmentedStrategy extends RunnableStrategy {
  success(user: unknown, info?: unknown): void;
  fail(info?: unknown, status?: number): void;
  redirect(url: string, status?: number): void;
  error(err: unknown): void;
  pass(): void;
}

/**
 * Drives one passport strategy once, the way passport's own middleware does (an object derived
 * from the strategy with `success`/`fail`/`redirect`/`error` attached), but resolves a promise
 * instead of writing the response. Strategies are built per request from the project's settings,
 * so none is registered globally. The first outcome wins; a throw from any callback that runs
 * through `run` (state store, HTTP transport, verify) becomes an `error` outcome, and a deadline
 * bounds the whole run.
 */
export class StrategyRun<T> implements CallbackGuard {
  readonly outcome: Promise<StrategyOutcome<T>>;
  private resolve!: (o: StrategyOutcome<T>) => void;
  private settled = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deadlineMs: number) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
  }

  run(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.finish({ kind: 'error', error });
    }
  }

  finish(outcome: StrategyOutcome<T>): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.resolve(outcome);
  }

  start(
    strategy: RunnableStrategy,
    req: unknown,
    options: Record<string, unknown>,
  ): Promise<StrategyOutcome<T>> {
    this.timer = setTimeout(
      () =>
        this.finish({
          kind: 'error',
          error: new ProviderHttpError('the identity provider did not answer in time'),
        }),
      this.deadlineMs,
    );
    const s = Object.create(strategy) as AugmentedStrategy;
    s.success = (user: unknown) => this.finish({ kind: 'success', user: user as T });
    s.fail = (info?: unknown) => this.finish({ kind: 'fail', info });
    s.redirect = (url: string) => this.finish({ kind: 'redirect', url });
    s.error = (error: unknown) => this.finish({ kind: 'error', error });
    s.pass = () =>
      this.finish({ kind: 'error', error: new Error('the strategy did not handle the request') });
    this.run(() => s.authenticate(req, options));
    return this.outcome;
  }
}
