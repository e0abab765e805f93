import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

export interface Option {
  value: string;
  label: string;
}

/**
 * A select whose options the server finds as the admin types (a tenant's users or projects, too
 * many to load at once): `search(text)` lists the matches, `selected` names the chosen value (from
 * the URL, before any search). `value` is an id.
 */
export function RemoteSelect({
  queryKey,
  search,
  selected,
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'> & {
  queryKey: readonly unknown[];
  search: (text: string) => Promise<Option[]>;
  selected: Option | null;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, 250);
  const typed = debounced.trim() === (selected?.label ?? '') ? '' : debounced.trim();
  const found = useQuery({
    queryKey: [...queryKey, 'search', typed],
    queryFn: () => search(typed),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = [
    ...(selected && value ? [selected] : []),
    ...(found.data ?? []).filter((o) => o.value !== value),
  ];
  return (
    <Select
      searchable
      clearable
      filter={({ options: all }) => all}
      data={options}
      value={value}
      onChange={onChange}
      searchValue={text}
      onSearchChange={setText}
      nothingFoundMessage={
        found.isFetching ? 'Searching…' : found.isError ? 'Could not search' : 'Nothing matches'
      }
      {...props}
    />
  );
}
