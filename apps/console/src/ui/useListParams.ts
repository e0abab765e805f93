import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list screen's state in its URL (`?q=&project=&page=`), so back, reload and shared links keep
 * the search and the page; any change of a filter goes back to page 1. Each change starts from the
 * latest one made, not from the last render's URL: two filters set before the router re-renders
 * (a date typed, then the next) both stay.
 */
export function useListParams<K extends string>(filters: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  latest.current = params;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const values = Object.fromEntries(filters.map((f) => [f, params.get(f) ?? ''])) as Record<
    K,
    string
  >;
  const setFilter = useCallback(
    (name: K, value: string | null) => {
      const next = new URLSearchParams(latest.current);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );
  const setPage = useCallback(
    (p: number) => {
      const next = new URLSearchParams(latest.current);
      if (p > 1) next.set('page', String(p));
      else next.delete('page');
      latest.current = next;
      setParams(next);
    },
    [setParams],
  );
  return { page, values, setFilter, setPage };
}
