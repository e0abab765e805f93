import { QueryFailedError } from 'typeorm';

/** The violated constraint's name when `err` is a PostgreSQL unique violation (23505), else null. */
export function uniqueViolation(err: unknown): string | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver.code === '23505' ? (driver.constraint ?? '') : null;
}

/** True when `err` is a PostgreSQL foreign-key violation (23503): a referenced row vanished meanwhile. */
export function foreignKeyViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23503';
}
