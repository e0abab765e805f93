import { createTheme, type CSSVariablesResolver } from '@mantine/core';

// The look of the console and the hosted pages. Shades chosen for WCAG AA contrast (4.5:1) in both
// themes: the browser journeys scan every screen with axe-core in both. autoContrast: filled badges
// and buttons pick black or white text by their background.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  autoContrast: true,
});

export const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
