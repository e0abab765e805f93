import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { ProjectSelect } from './ProjectSelect';
import { SearchInput } from './SearchInput';
import { useListParams } from './useListParams';

/** A list searched by text and narrowed to one project, its state in the URL (`?q=&project=&page=`). */
export function useSearchFilters() {
  const params = useListParams(['q', 'project'] as const);
  const { q, project } = params.values;
  /** The list's API query: the search, the project and the page. */
  const apiQuery = { q: q || undefined, project_id: project || undefined, page: params.page };
  return { ...params, apiQuery, filtered: Boolean(q || project) };
}

/** The filters of such a list, then `children` (its other actions) in the same row. */
export function SearchFilters({
  label,
  placeholder,
  filters: { values, setFilter },
  children,
}: {
  label: string;
  placeholder: string;
  filters: ReturnType<typeof useSearchFilters>;
  children?: ReactNode;
}) {
  return (
    <Group align="flex-end" mb="md" wrap="wrap">
      <SearchInput
        label={label}
        placeholder={placeholder}
        value={values.q}
        onSearch={(q) => setFilter('q', q)}
      />
      <ProjectSelect
        label="Project"
        placeholder="All projects"
        clearable
        value={values.project || null}
        onChange={(id) => setFilter('project', id)}
        miw={220}
      />
      {children}
    </Group>
  );
}
