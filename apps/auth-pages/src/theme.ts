import type { MantineColorSchemeManager } from '@mantine/core';

/** The pages follow the system's light or dark preference and store no choice anywhere. */
export const systemColorScheme: MantineColorSchemeManager = {
  get: () => 'auto',
  set: () => undefined,
  subscribe: () => undefined,
  unsubscribe: () => undefined,
  clear: () => undefined,
};
