import { Group, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

/** The screen's heading (and the document title, which screen readers announce on navigation). */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Gatehouse console`;
  }, [title]);
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
