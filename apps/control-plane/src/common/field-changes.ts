/**
 * `data.changes` of an update event (CONTRACT §13): each changed field's `{from, to}` under its
 * API name. `before` must be read before the change is applied (repositories assign the changes
 * onto the locked row). Only for fields that hold no secret: a secret's change is `{changed: true}`.
 */
export function fieldChanges<K extends string>(
  changed: readonly K[],
  names: Record<K, string>,
  before: Record<K, unknown>,
  after: Record<K, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  return Object.fromEntries(
    changed.map((k) => [names[k], { from: before[k] ?? null, to: after[k] ?? null }]),
  );
}
