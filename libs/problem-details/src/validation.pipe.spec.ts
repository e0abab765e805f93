import { RouteTable } from './route-table';
import { findHostileValues } from './validation.pipe';

describe('findHostileValues', () => {
  it('flags prototype keys, NUL bytes and lone surrogates with dotted paths', () => {
    const body = JSON.parse('{"a":{"__proto__":{"x":1}},"b":["ok","x\\u0000"],"c":"\\udc00","d":"fine"}') as unknown;
    const found = findHostileValues(body);
    expect(Object.keys(found).sort()).toEqual(['a.__proto__', 'b.1', 'c']);
  });

  it('accepts ordinary input', () => {
    expect(findHostileValues({ email: 'é@example.com', tags: ['😀'] })).toEqual({});
  });
});

describe('RouteTable', () => {
  it('lists the methods of a path and adds HEAD for GET', () => {
    const t = new RouteTable();
    t.add('/v1/auth/sessions', 'get');
    t.add('/v1/auth/sessions/:id', 'delete');
    expect(t.allowedMethods('/v1/auth/sessions')).toEqual(['GET', 'HEAD']);
    expect(t.allowedMethods('/v1/auth/sessions/abc')).toEqual(['DELETE']);
    expect(t.allowedMethods('/v1/auth/other')).toEqual([]);
  });
});
