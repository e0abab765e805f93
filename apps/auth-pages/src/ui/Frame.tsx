import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * One card in the middle of the page: the project's name, the screen's heading (which takes the
 * focus whenever the step changes, so a screen reader reads where the person now is), the content.
 */
export function Frame({ project, heading, step, children }: { project: string | null; heading: string; step: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = project ? `${heading} · ${project}` : heading;
  }, [heading, project]);
  useEffect(() => {
    // The first screen keeps the browser's own focus (or an input's autofocus); later ones move it to their heading.
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [step]);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440}>
        <Stack gap="xs" mb="lg">
          {project && (
            <Text size="sm" c="dimmed" fw={500}>
              {project}
            </Text>
          )}
          <Title order={1} size="h2" ref={ref} tabIndex={-1} style={{ outline: 'none' }}>
            {heading}
          </Title>
        </Stack>
        {children}
      </Paper>
    </Center>
  );
}
