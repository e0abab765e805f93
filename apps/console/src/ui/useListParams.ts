import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list screen's state in its URL (`?q=&project=&page=`), so back, reload and shared links keep
 * the search and the page; any change of a filter goes back to page 1.
 */
export function useListParams<K extends string>(filters: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const values = Object.fromEntries(filters.map((f) => [f, params.get(f) ?? ''])) as Record<K, string>;
  const setFilter = useCallback(
    (name: K, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(name, value);
          else next.delete(name);
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setPage = useCallback(
    (p: number) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (p > 1) next.set('page', String(p));
        else next.delete('page');
        return next;
      }),
    [setParams],
  );
  return { page, values, setFilter, setPage };
}
