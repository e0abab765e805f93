import { deletionOrder, emptyTables } from './reset';

const deadlock = () =>
  Object.assign(new Error('deadlock detected'), { driverError: { code: '40P01' } });

describe('emptyTables', () => {
  it('runs the statement again when PostgreSQL chose it as a deadlock victim', async () => {
    const query = jest
      .fn()
      .mockRejectedValueOnce(deadlock())
      .mockRejectedValueOnce(deadlock())
      .mockResolvedValueOnce([]);
    await emptyTables({ query } as never, 'TRUNCATE "a", "b"');
    expect(query.mock.calls).toEqual([
      ['TRUNCATE "a", "b"'],
      ['TRUNCATE "a", "b"'],
      ['TRUNCATE "a", "b"'],
    ]);
  });

  it('gives up after five deadlocks, and at once on any other error', async () => {
    const always = jest.fn().mockRejectedValue(deadlock());
    await expect(emptyTables({ query: always } as never, 'TRUNCATE "a"')).rejects.toThrow(
      'deadlock detected',
    );
    expect(always).toHaveBeenCalledTimes(5);
    const other = jest
      .fn()
      .mockRejectedValue(
        Object.assign(new Error('relation missing'), { driverError: { code: '42P01' } }),
      );
    await expect(emptyTables({ query: other } as never, 'TRUNCATE "a"')).rejects.toThrow(
      'relation missing',
    );
    expect(other).toHaveBeenCalledTimes(1);
  });
});

describe('deletionOrder', () => {
  it('puts every table before the tables it references, whatever order the catalog lists them in', () => {
    const references = [
      { child: 'sessions', parent: 'users' },
      { child: 'users', parent: 'projects' },
      { child: 'projects', parent: 'tenants' },
      { child: 'sessions', parent: 'organizations' },
      { child: 'organizations', parent: 'tenants' },
      { child: 'users', parent: 'users' }, // a self-reference orders nothing
    ];
    const tables = ['tenants', 'projects', 'organizations', 'users', 'sessions', 'webhooks'];
    for (const listed of [tables, [...tables].reverse()]) {
      const order = deletionOrder(listed, references);
      expect([...order].sort()).toEqual([...tables].sort());
      for (const { child, parent } of references)
        if (child !== parent) expect(order.indexOf(child)).toBeLessThan(order.indexOf(parent));
    }
  });

  it('still lists every table once when foreign keys form a cycle', () => {
    const order = deletionOrder(
      ['a', 'b', 'c'],
      [
        { child: 'a', parent: 'b' },
        { child: 'b', parent: 'a' },
        { child: 'c', parent: 'a' },
      ],
    );
    expect([...order].sort()).toEqual(['a', 'b', 'c']);
    expect(order.indexOf('c')).toBeLessThan(order.indexOf('a'));
  });
});
