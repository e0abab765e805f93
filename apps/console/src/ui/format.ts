/** Dates as the admin reads them: local time, to the minute; `—` for none. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** The non-empty trimmed lines of a textarea (origins, redirect URLs). */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
