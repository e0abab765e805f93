import { isDependencyFailure, isRejectedInput } from './dependency-failure';

describe('isRejectedInput', () => {
  it('takes PostgreSQL refusing a value for a bad request, as a driver error or wrapped by TypeORM', () => {
    // 22009: a time zone it cannot read, as `+010000-01-01T00:00:00.000Z` (a year past 9999) is.
    for (const code of ['22P02', '22021', '22001', '22003', '22007', '22008', '22009']) {
      expect(isRejectedInput({ code })).toBe(true);
      expect(isRejectedInput({ driverError: { code } })).toBe(true);
    }
    for (const err of [{ code: '23505' }, { code: '42P01' }, new Error('x'), null, undefined])
      expect(isRejectedInput(err)).toBe(false);
    expect(isDependencyFailure({ code: '22009' })).toBe(false);
  });
});
