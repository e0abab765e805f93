import { Skeleton, Stack, VisuallyHidden } from '@mantine/core';

/** What a list shows while its first page loads: grey rows where the table will be (not a blank screen), announced as loading. */
export function TableSkeleton({ label, rows = 6 }: { label: string; rows?: number }) {
  return (
    <Stack gap="xs" role="status" aria-live="polite" data-testid="list-skeleton">
      <VisuallyHidden>Loading {label}…</VisuallyHidden>
      <Skeleton height={28} radius="sm" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={22} radius="sm" width={`${100 - (i % 3) * 8}%`} />
      ))}
    </Stack>
  );
}
