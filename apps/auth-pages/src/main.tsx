import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { contrast, theme } from '@gatehouse/ui-shared';
import { systemColorScheme } from './theme';

/** The nonce the auth runtime put in this page's CSP (docs/oidc.md, "Hosted pages"): Mantine's <style> elements carry it. */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={contrast}
      defaultColorScheme="auto"
      colorSchemeManager={systemColorScheme}
      getStyleNonce={() => nonce}
    >
      <App />
    </MantineProvider>
  </StrictMode>,
);
