const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are opaque strings; a malformed one is simply not found (CONTRACT §10). */
export function isId(value: string): boolean {
  return UUID.test(value);
}
