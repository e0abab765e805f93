import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * One card in the middle of the page: the project's name, the screen's heading (which takes the
 * focus when the step changes and no field of the new step took it), the content.
 */
export function Frame({
  project,
  heading,
  step,
  children,
}: {
  project: string | null;
  heading: string;
  step: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = project ? `${heading} · ${project}` : heading;
  }, [heading, project]);
  useEffect(() => {
    // The first screen keeps the browser's own focus (or an input's autofocus). On a later step, a
    // field that took the focus keeps it; otherwise (the focused button went away with the old
    // step) the heading takes it, so a screen reader says where the person now is.
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    const main = ref.current?.closest('main');
    if (!active || active === document.body || !main?.contains(active)) ref.current?.focus();
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
