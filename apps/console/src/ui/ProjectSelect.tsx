import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { unwrap } from '../api/clients';
import { useAdminApi } from '../auth/AuthContext';

/** The tenant's projects (the first 100, newest first) for pickers and for naming a `project_id`. */
export function useProjectOptions() {
  const api = useAdminApi();
  const query = useQuery({
    queryKey: ['projects', 'options'],
    queryFn: () => unwrap(api.GET('/v1/admin/projects', { params: { query: { limit: 100 } } })),
    staleTime: 60_000,
  });
  const names = useMemo(
    () => new Map((query.data?.projects ?? []).map((p) => [p.id, p.name])),
    [query.data],
  );
  return { query, projects: query.data?.projects ?? [], names };
}

/** A searchable select of the tenant's projects; `value` is a project id. */
export function ProjectSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const { query, projects } = useProjectOptions();
  return (
    <Select
      searchable
      data={projects.map((p) => ({ value: p.id, label: p.name }))}
      value={value}
      onChange={(id) => onChange(id)}
      nothingFoundMessage={
        query.isPending
          ? 'Loading projects…'
          : query.isError
            ? 'Could not load projects'
            : 'No project matches'
      }
      error={query.isError ? 'Could not load the projects' : undefined}
      {...props}
    />
  );
}
