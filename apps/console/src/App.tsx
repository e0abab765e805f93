import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import {
  createBrowserRouter,
  Navigate,
  Outlet,
  RouterProvider,
  useLocation,
  useRouteError,
} from 'react-router-dom';
import { useAuth } from './auth/AuthContext';
import { NotAdminPage } from './auth/NotAdminPage';
import { SignInPage } from './auth/SignInPage';
import { Shell } from './layout/Shell';

// The overview's charts (recharts) load only with that screen, keeping the first load small.
const OverviewPage = lazy(() => import('./pages/overview/OverviewPage'));
const ProjectsPage = lazy(() => import('./pages/projects/ProjectsPage'));
const ProjectPage = lazy(() => import('./pages/projects/ProjectPage'));
const UsersPage = lazy(() => import('./pages/users/UsersPage'));
const UserPage = lazy(() => import('./pages/users/UserPage'));
const ImportUsersPage = lazy(() => import('./pages/transfer/ImportUsersPage'));
const OrganizationsPage = lazy(() => import('./pages/organizations/OrganizationsPage'));
const OrganizationPage = lazy(() => import('./pages/organizations/OrganizationPage'));
const WebhooksPage = lazy(() => import('./pages/webhooks/WebhooksPage'));
const WebhookPage = lazy(() => import('./pages/webhooks/WebhookPage'));
const AuditPage = lazy(() => import('./pages/audit/AuditPage'));

function Loading() {
  return (
    <Center mih="50vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}

/** A screen that failed to load or render (e.g. a file of an older build after an upgrade): say so and offer a reload. */
function RouteError() {
  const error = useRouteError();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={480} role="alert">
        <Title order={1} size="h2">
          This screen could not be shown
        </Title>
        <Text ta="center">
          {error instanceof Error ? error.message : 'An unexpected error happened.'} Reloading the
          console usually fixes it after an upgrade.
        </Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}

/** Signed-in admins only: others go to the sign-in page (and come back), non-admins see why they cannot enter. */
function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, admin } = useAuth();
  const location = useLocation();
  if (status === 'restoring') return <Loading />;
  if (status === 'signed-out' || !admin)
    return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  if (!admin.is_admin) return <NotAdminPage />;
  return <>{children}</>;
}

function SignInRoute() {
  const { status, admin } = useAuth();
  const location = useLocation();
  if (status === 'restoring') return <Loading />;
  if (status === 'signed-in' && admin)
    return <Navigate to={(location.state as { from?: string } | null)?.from ?? '/'} replace />;
  return <SignInPage />;
}

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInRoute /> },
    {
      element: (
        <RequireAdmin>
          <Shell />
        </RequireAdmin>
      ),
      children: [
        {
          element: (
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          ),
          errorElement: <RouteError />,
          children: [
            { index: true, element: <OverviewPage /> },
            { path: 'projects', element: <ProjectsPage /> },
            { path: 'projects/:id', element: <ProjectPage /> },
            { path: 'users', element: <UsersPage /> },
            { path: 'users/import', element: <ImportUsersPage /> },
            { path: 'users/:id', element: <UserPage /> },
            { path: 'organizations', element: <OrganizationsPage /> },
            { path: 'organizations/:id', element: <OrganizationPage /> },
            { path: 'webhooks', element: <WebhooksPage /> },
            { path: 'webhooks/:id', element: <WebhookPage /> },
            { path: 'audit', element: <AuditPage /> },
            { path: '*', element: <Navigate to="/" replace /> },
          ],
        },
      ],
    },
  ],
  { basename: import.meta.env.BASE_URL.replace(/\/$/, '') },
);

export function App() {
  return <RouterProvider router={router} />;
}
