import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Read-only fields as label/value pairs (a description list), in one column on a phone and up to three on a wide screen. */
export function DetailGrid({ items }: { items: { label: string; value: ReactNode }[] }) {
  return (
    <SimpleGrid
      component="dl"
      cols={{ base: 1, xs: 2, md: 3 }}
      spacing="md"
      verticalSpacing="sm"
      m={0}
    >
      {items.map((item) => (
        <Stack key={item.label} gap={2}>
          <Text component="dt" size="xs" c="dimmed" fw={600} tt="uppercase">
            {item.label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {item.value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
