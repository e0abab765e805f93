import { retryDelayMs } from './retry-schedule';

describe('retryDelayMs', () => {
  const schedule = [5_000, 300_000, 1_800_000];

  it('follows the schedule, attempt by attempt, with at most 10 % jitter on top', () => {
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(5_000);
    expect(retryDelayMs(schedule, 2, () => 0)).toBe(300_000);
    expect(retryDelayMs(schedule, 3, () => 0.999)).toBe(Math.round(1_800_000 * 1.0999));
    for (let i = 0; i < 100; i += 1) {
      const d = retryDelayMs(schedule, 1)!;
      expect(d).toBeGreaterThanOrEqual(5_000);
      expect(d).toBeLessThanOrEqual(5_500);
    }
  });

  it('stops when the schedule is used up', () => {
    expect(retryDelayMs(schedule, 4)).toBeNull();
    expect(retryDelayMs([], 1)).toBeNull();
  });
});
