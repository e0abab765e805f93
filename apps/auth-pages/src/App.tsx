import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { loadConfig, type PagesConfig } from './api/client';
import { pageOf } from './pages';
import { ErrorScreen } from './screens/ErrorScreen';
import { SignedOutScreen } from './screens/SignedOutScreen';
import { SignInScreen } from './screens/SignInScreen';
import { Frame } from './ui/Frame';
import { ProblemAlert } from '@gatehouse/ui-shared';

/** One build for the four pages: the last segment of the path picks the screen. */
export function App() {
  const page = pageOf(window.location.pathname);
  const [config, setConfig] = useState<PagesConfig | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    loadConfig().then(setConfig, setError);
  }, []);

  if (error) {
    return (
      <Frame project={null} heading="This page could not be loaded" step="config-error">
        <ProblemAlert error={error} title="The sign-in service is not available" />
      </Frame>
    );
  }
  if (!config) {
    return (
      <Center mih="100vh" component="main">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  switch (page) {
    case 'signed-out':
      return <SignedOutScreen config={config} />;
    case 'error':
      return <ErrorScreen config={config} />;
    // The consent page is the sign-in page: the interaction says which prompt it is.
    case 'sign-in':
    case 'consent':
      return <SignInScreen config={config} />;
    default:
      return <ErrorScreen config={config} />;
  }
}
