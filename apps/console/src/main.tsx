import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import { createTheme, MantineProvider, Modal } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setNonce } from 'get-nonce';
import { ApiProblem, contrast, theme as baseTheme } from '@gatehouse/ui-shared';
import { App } from './App';
import { AuthProvider } from './auth/AuthContext';
import { loadConfig } from './config/console-config';

/** The nonce the control plane put in this page's CSP (docs/console.md): Mantine's <style> elements carry it. */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
// Modals lock the page's scroll with a <style> element (react-remove-scroll), which takes its nonce from get-nonce.
setNonce(nonce);

// The shared look, and every dialog's close button named for screen readers.
const theme = createTheme({
  ...baseTheme,
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
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
