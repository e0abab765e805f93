import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createGatehouse } from '@gatehouse/js';
import { GatehouseProvider } from '@gatehouse/react';
import { App, NotConfigured } from './App';
import './styles.css';

const authUrl = import.meta.env.VITE_GATEHOUSE_AUTH_URL ?? 'http://localhost:4000';
const projectKey = import.meta.env.VITE_GATEHOUSE_PROJECT_KEY;

const root = createRoot(document.getElementById('root')!);
if (!projectKey) {
  root.render(<NotConfigured />);
} else {
  // One client for the page, created outside React: it holds the session (the access token in
  // memory, renewed before it expires; the refresh token stays in Gatehouse's HttpOnly cookie).
  const gatehouse = createGatehouse({ authUrl, projectKey });
  root.render(
    <StrictMode>
      <GatehouseProvider client={gatehouse}>
        <App />
      </GatehouseProvider>
    </StrictMode>,
  );
}
