/** Share of the scheduled delay added at random, so retries of many deliveries do not all fire at once. */
export const RETRY_JITTER = 0.1;

/**
 * The delay before the attempt that follows failed attempt `attempt` (1-based): the configured
 * schedule's entry (`WEBHOOK_RETRY_SCHEDULE`, exponential by default: 5s, 5m, 30m, 2h, 5h, 10h, 10h)
 * plus up to 10 % jitter, never less than the entry. Null when the schedule is used up.
 */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + RETRY_JITTER * random()));
}
