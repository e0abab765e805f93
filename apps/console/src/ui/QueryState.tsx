import { Center, Loader, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { TableSkeleton } from './TableSkeleton';

/**
 * The three states every screen has besides its content: loading, error (the problem's detail and
 * trace id) and empty (`isEmpty` decides, `empty` says what to do next). A list (`list`) loads
 * as a skeleton of its rows instead of a spinner.
 */
export function QueryState<T>({
  query,
  isEmpty,
  empty,
  label,
  list,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  label: string;
  list?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    if (list) return <TableSkeleton label={label} />;
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader size="sm" aria-hidden />
          <Text size="sm" c="dimmed">
            Loading {label}…
          </Text>
        </Stack>
      </Center>
    );
  }
  if (query.isError) return <ProblemAlert error={query.error} title={`Could not load ${label}`} />;
  if (isEmpty?.(query.data)) {
    return (
      <Center py="xl">
        <Text c="dimmed" data-testid="empty-state">
          {empty ?? `No ${label} yet.`}
        </Text>
      </Center>
    );
  }
  return <>{children(query.data)}</>;
}
