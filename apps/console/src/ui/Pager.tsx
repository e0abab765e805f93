import { Group, Pagination, Text } from '@mantine/core';

export interface PaginationInfo {
  page: number;
  limit: number;
  total: number;
}

/** Page links under a list (`?page=&limit=` of the admin API, docs/api-contract.md §6). */
export function Pager({
  pagination,
  onPage,
}: {
  pagination: PaginationInfo;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {pagination.total} in all
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={pagination.page}
          onChange={onPage}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
        />
      )}
    </Group>
  );
}
