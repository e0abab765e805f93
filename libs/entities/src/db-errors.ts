/** What PostgreSQL errors and row ids mean to the code above the database, decided once. */
import { QueryFailedError } from 'typeorm';

/** The violated constraint's name when `err` is a PostgreSQL unique violation (23505), else null. */
export function uniqueViolation(err: unknown): string | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver.code === '23505' ? (driver.constraint ?? '') : null;
}

/** True when PostgreSQL aborted the statement's transaction to break a deadlock (40P01): the whole transaction may be run again. */
export function deadlockDetected(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '40P01';
}

/** True when `err` is a PostgreSQL foreign-key violation (23503): a referenced row vanished meanwhile. */
export function foreignKeyViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23503';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` has the shape of a row id (a UUID, any case). Ids are opaque to clients; one
 * that is malformed is simply not found (docs/api-contract.md §10), and is never sent to PostgreSQL.
 */
export function isId(value: string): boolean {
  return UUID.test(value);
}
