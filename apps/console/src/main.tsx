import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import { createTheme, MantineProvider, Modal, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setNonce } from 'get-nonce';
import { ApiProblem } from './api/problem';
import { App } from './App';
import { AuthProvider } from './auth/AuthContext';
import { loadConfig } from './config/console-config';

/** The nonce the control plane put in this page's CSP (docs/console.md): Mantine's <style> elements carry it. */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
// Modals lock the page's scroll with a <style> element (react-remove-scroll), which takes its nonce from get-nonce.
setNonce(nonce);

// Shades chosen for WCAG AA contrast (4.5:1) in both themes: axe-core checks every screen.
// autoContrast: filled badges and buttons pick black or white text by their background.
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  autoContrast: true,
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
  },
});
const contrast: CSSVariablesResolver = () => ({
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

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // A problem the server decided (4xx) is not retried; network failures and 5xx are, twice.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiProblem && error.status >= 400 && error.status < 500),
    },
  },
});

const root = createRoot(document.getElementById('root')!);
loadConfig()
  .then((config) =>
    root.render(
      <StrictMode>
        <MantineProvider
          theme={theme}
          cssVariablesResolver={contrast}
          defaultColorScheme="auto"
          getStyleNonce={() => nonce}
        >
          <QueryClientProvider client={queryClient}>
            <AuthProvider config={config}>
              <App />
            </AuthProvider>
          </QueryClientProvider>
        </MantineProvider>
      </StrictMode>,
    ),
  )
  .catch((err: unknown) => {
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = err instanceof Error ? err.message : String(err);
    document.getElementById('root')!.replaceChildren(p);
  });
