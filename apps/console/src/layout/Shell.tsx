import { AppShell, Burger, Button, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext';
import { ThemeToggle } from '../ui/ThemeToggle';

const SCREENS = [
  { to: '/', label: 'Overview', end: true },
  { to: '/projects', label: 'Projects' },
  { to: '/users', label: 'Users' },
  { to: '/organizations', label: 'Organizations' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/audit', label: 'Audit log' },
];

/** The frame of every signed-in screen: header with the admin and sign-out, navigation (a drawer under 768 px). */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { admin, signOut } = useAuth();
  const location = useLocation();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Text fw={700} component="span">
              Gatehouse
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="signed-in-as">
              {admin?.email}
            </Text>
            <ThemeToggle />
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation" component="nav">
        {SCREENS.map((s) => (
          <NavLink
            key={s.to}
            component={RouterLink}
            to={s.to}
            end={s.end}
            label={s.label}
            variant="filled"
            active={s.end ? location.pathname === s.to : location.pathname.startsWith(s.to)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
