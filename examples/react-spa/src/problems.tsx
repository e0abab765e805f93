import { GatehouseError } from '@gatehouse/js';

/** What to tell the person about a failure: the problem's own `detail`, with a wait time for rate limits. */
export function describeError(err: unknown): string {
  if (!(err instanceof GatehouseError)) return 'Something went wrong.';
  if (err.slug === 'network-error')
    return 'Gatehouse cannot be reached. Check VITE_GATEHOUSE_AUTH_URL and that this page’s origin is an allowed origin of the project.';
  if (err.retryAfter !== undefined)
    return `${err.detail ?? err.title} Try again in ${err.retryAfter} s.`;
  return err.detail ?? err.title;
}

/** An error for the whole form, announced by screen readers as it appears. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

/** The messages of a `validation-error` for one field (`errors.password`, …), for `aria-describedby`. */
export function fieldErrors(error: unknown, field: string): string[] {
  return error instanceof GatehouseError ? (error.errors?.[field] ?? []) : [];
}
