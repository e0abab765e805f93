/**
 * `data.changes` of an update event (docs/api-contract.md §13): each changed field's `{from, to}` under its
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

/** How `patchRow` writes one kind of row. */
export interface RowPatch<R, C> {
  /** The members the request gives, in stored form. */
  given: C;
  /** Each member's API name, for `data.changes`. */
  names: Record<Extract<keyof C, string>, string>;
  /** Judges the row as it would be stored (throws), before the answer that nothing changed. */
  check?: (next: R & C) => void;
  /** Writes the changed members onto the locked row. */
  save: (changes: C) => Promise<R>;
  /** Records the update event of the saved row with its `data.changes`. */
  record: (saved: R, changes: Record<string, { from: unknown; to: unknown }>) => Promise<unknown>;
}

/**
 * A PATCH of a locked row (docs/api-contract.md §13): only the given members that differ from the
 * stored ones (compared as JSON) are saved and recorded with their `{from, to}`; when none differs
 * the row is answered as it is and no event is written.
 */
export async function patchRow<
  R extends Record<Extract<keyof C, string>, unknown>,
  C extends object,
>(row: R, patch: RowPatch<R, C>): Promise<R> {
  const changes = {} as C;
  for (const [key, value] of Object.entries(patch.given) as [Extract<keyof C, string>, unknown][])
    if (JSON.stringify(value) !== JSON.stringify(row[key]))
      Object.assign(changes, { [key]: value });
  patch.check?.({ ...row, ...changes });
  const changed = Object.keys(changes) as Extract<keyof C, string>[];
  if (changed.length === 0) return row;
  const before = { ...row };
  const saved = await patch.save(changes);
  await patch.record(saved, fieldChanges(changed, patch.names, before, saved));
  return saved;
}
