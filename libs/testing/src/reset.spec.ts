import { truncate } from './reset';

const deadlock = () =>
  Object.assign(new Error('deadlock detected'), { driverError: { code: '40P01' } });

describe('truncate', () => {
  it('runs the statement again when PostgreSQL chose it as a deadlock victim', async () => {
    const query = jest
      .fn()
      .mockRejectedValueOnce(deadlock())
      .mockRejectedValueOnce(deadlock())
      .mockResolvedValueOnce([]);
    await truncate({ query } as never, 'TRUNCATE "a", "b"');
    expect(query.mock.calls).toEqual([
      ['TRUNCATE "a", "b"'],
      ['TRUNCATE "a", "b"'],
      ['TRUNCATE "a", "b"'],
    ]);
  });

  it('gives up after five deadlocks, and at once on any other error', async () => {
    const always = jest.fn().mockRejectedValue(deadlock());
    await expect(truncate({ query: always } as never, 'TRUNCATE "a"')).rejects.toThrow(
      'deadlock detected',
    );
    expect(always).toHaveBeenCalledTimes(5);
    const other = jest
      .fn()
      .mockRejectedValue(
        Object.assign(new Error('relation missing'), { driverError: { code: '42P01' } }),
      );
    await expect(truncate({ query: other } as never, 'TRUNCATE "a"')).rejects.toThrow(
      'relation missing',
    );
    expect(other).toHaveBeenCalledTimes(1);
  });
});
