import { QueryFailedError } from 'typeorm';

/** The violated constraint's name when `err` is a PostgreSQL unique violation (23505), else null. */
export function uniqueViolation(err: unknown): string | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver.code === '23505' ? (driver.constraint ?? '') : null;
}
