import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useAuth } from './AuthContext';

/** A signed-in user who is not an administrator of this tenant's console project. */
export function NotAdminPage() {
  const { admin, signOut } = useAuth();
  useEffect(() => {
    document.title = 'Not an administrator · Gatehouse console';
  }, []);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" maw={440} w="100%">
        <Stack>
          <Title order={1} size="h2">
            Not an administrator
          </Title>
          <Text>
            {admin?.email ?? 'This account'} is signed in, but it is not an administrator of this
            console. Ask an administrator of your tenant to give you access, or sign in with another
            account.
          </Text>
          <Button onClick={() => void signOut()}>Sign out</Button>
        </Stack>
      </Paper>
    </Center>
  );
}
