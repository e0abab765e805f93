import { workerDatabaseUrl, workerRedisUrl } from './test-env';

describe('the databases of parallel Jest workers', () => {
  it('gives worker N the database <name>_wN, and the template itself outside Jest', () => {
    expect(workerDatabaseUrl('postgres://postgres@127.0.0.1:5432/gatehouse_test', 1)).toBe(
      'postgres://postgres@127.0.0.1:5432/gatehouse_test_w1',
    );
    expect(workerDatabaseUrl('postgres://u:p@db:5433/t?sslmode=disable', 3)).toBe(
      'postgres://u:p@db:5433/t_w3?sslmode=disable',
    );
    expect(workerDatabaseUrl('postgres://postgres@127.0.0.1:5432/gatehouse_test', 0)).toBe(
      'postgres://postgres@127.0.0.1:5432/gatehouse_test',
    );
  });

  it('gives worker N the Redis database after the given one, N − 1 on, and refuses past 15', () => {
    expect([1, 2, 3].map((w) => workerRedisUrl('redis://127.0.0.1:6379/1', w))).toEqual([
      'redis://127.0.0.1:6379/1',
      'redis://127.0.0.1:6379/2',
      'redis://127.0.0.1:6379/3',
    ]);
    expect(workerRedisUrl('redis://127.0.0.1:6379', 2)).toBe('redis://127.0.0.1:6379/1');
    expect(workerRedisUrl('redis://127.0.0.1:6379/4', 0)).toBe('redis://127.0.0.1:6379/4');
    expect(() => workerRedisUrl('redis://127.0.0.1:6379/15', 2)).toThrow(
      'TEST_REDIS_URL redis://127.0.0.1:6379/15 leaves no Redis database for Jest worker 2 (16 > 15)',
    );
  });
});
