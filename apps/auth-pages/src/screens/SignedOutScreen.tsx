import { Text } from '@mantine/core';
import type { PagesConfig } from '../api/client';
import { Frame } from '../ui/Frame';

/** Where RP-initiated logout ends when the application named no page of its own to return to. */
export function SignedOutScreen({ config }: { config: PagesConfig }) {
  return (
    <Frame project={config.project_name} heading="You are signed out" step="signed-out">
      <Text>You have signed out of {config.project_name}. You can close this window.</Text>
    </Frame>
  );
}
