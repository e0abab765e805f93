import { RouteTable } from './route-table';
import {
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { findHostileValues, flattenValidationErrors } from './validation.pipe';

describe('findHostileValues', () => {
  it('flags prototype keys, NUL bytes and lone surrogates with dotted paths', () => {
    const body = JSON.parse(
      '{"a":{"__proto__":{"x":1}},"b":["ok","x\\u0000"],"c":"\\udc00","d":"fine"}',
    ) as unknown;
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

describe('flattenValidationErrors', () => {
  class Settings {
    @IsInt() @Min(60) @Max(86400) ttl!: number;
  }
  class Body {
    @IsString() @MaxLength(5) name!: string;
    @ValidateNested() @Type(() => Settings) settings!: Settings;
  }
  const errorsOf = (plain: object) =>
    flattenValidationErrors(validateSync(plainToInstance(Body, plain)));

  it('gives a mistyped value only its type message, with dotted paths', () => {
    expect(errorsOf({ name: 42, settings: { ttl: '600' } })).toEqual({
      name: ['name must be a string'],
      'settings.ttl': ['ttl must be an integer number'],
    });
  });

  it('gives a well-typed value every message it fails', () => {
    expect(errorsOf({ name: 'too long', settings: { ttl: 5 } })).toEqual({
      name: ['name must be shorter than or equal to 5 characters'],
      'settings.ttl': ['ttl must not be less than 60'],
    });
  });
});
