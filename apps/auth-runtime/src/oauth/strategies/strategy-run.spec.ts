import { StrategyRun } from './strategy-run';

describe('StrategyRun', () => {
  it('resolves with the first outcome and ignores later ones', async () => {
    const run = new StrategyRun<string>(1000);
    const strategy = {
      authenticate(this: { redirect(u: string): void; success(u: unknown): void }) {
        this.redirect('https://idp.example/authorize');
        this.success('late');
      },
    };
    await expect(run.start(strategy, {}, {})).resolves.toEqual({
      kind: 'redirect',
      url: 'https://idp.example/authorize',
    });
  });

  it('turns a throw, inside authenticate or a guarded callback, into an error outcome', async () => {
    const boom = new Error('boom');
    await expect(
      new StrategyRun(1000).start(
        {
          authenticate: () => {
            throw boom;
          },
        },
        {},
        {},
      ),
    ).resolves.toEqual({ kind: 'error', error: boom });
    const run = new StrategyRun(1000);
    const outcome = run.start(
      {
        authenticate: () =>
          setTimeout(
            () =>
              run.run(() => {
                throw boom;
              }),
            5,
          ),
      },
      {},
      {},
    );
    await expect(outcome).resolves.toEqual({ kind: 'error', error: boom });
  });

  it('ends a strategy that never answers at the deadline', async () => {
    const outcome = await new StrategyRun(30).start({ authenticate: () => undefined }, {}, {});
    expect(outcome.kind).toBe('error');
  });
});
