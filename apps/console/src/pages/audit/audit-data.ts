/** What an audit event's `data` says (docs/api-contract.md §13), as lines an admin reads, and the action filter as the API takes it. */
import { EVENT_TYPES } from '../webhooks/events';

export type DataLine =
  | { kind: 'change'; field: string; from: string; to: string }
  | { kind: 'secret'; field: string }
  | { kind: 'fact'; key: string; value: string };

/** A value of a change as text: strings as they are, none as "none", anything else as compact JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 0) return 'none';
  return JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `data.changes` as from → to per field (a secret's change without its values; a field sent with
 * the value it had is no change), then any other member as a fact, except what the row already
 * shows: the list of `changed` field names and the resource named by its id (`project: {id, name}`).
 */
export function dataLines(data: Record<string, unknown>): DataLine[] {
  const out: DataLine[] = [];
  const { changes, ...rest } = data;
  if (isObject(changes)) {
    for (const [field, change] of Object.entries(changes)) {
      if (!isObject(change)) continue;
      if (change.changed === true && !('from' in change) && !('to' in change))
        out.push({ kind: 'secret', field });
      else if (JSON.stringify(change.from ?? null) !== JSON.stringify(change.to ?? null))
        out.push({ kind: 'change', field, from: valueText(change.from), to: valueText(change.to) });
    }
    delete rest.changed;
  }
  for (const [key, value] of Object.entries(rest))
    if (!(isObject(value) && 'id' in value))
      out.push({ kind: 'fact', key, value: valueText(value) });
  return out;
}

/** The prefixes of the catalogue's actions (`user`, `oauth_client`, `organization.member`…). */
const PREFIXES = new Set(
  EVENT_TYPES.flatMap((t) =>
    t
      .split('.')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
  ),
);

/**
 * The `action` query for what the admin typed: an action of the catalogue or a `prefix.*` as it
 * is; a known prefix (`user`, `user.`) as `user.*`; anything else as typed (an exact action no event has).
 */
export function actionQuery(typed: string): string | undefined {
  const text = typed.trim();
  if (!text) return undefined;
  if (text.endsWith('.*') || (EVENT_TYPES as string[]).includes(text)) return text;
  const stem = text.replace(/\.$/, '');
  return PREFIXES.has(stem) ? `${stem}.*` : text;
}

/** The prefix options offered besides the actions (`user.*`, `project.*`…). */
export const ACTION_PREFIXES = [...PREFIXES].sort().map((p) => `${p}.*`);
