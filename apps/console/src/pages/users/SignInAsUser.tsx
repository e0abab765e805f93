/**
 * "Sign in as user" (impersonation, docs/api-contract.md §13 ★): the admin gives a reason (kept in the audit
 * log) and picks where to land among the project's registered redirect URLs; the control plane
 * answers a one-time link (60 s, single use) that the admin opens in a new tab. The session it
 * starts is the user's, marked with the admin as `act` (15-minute tokens, an hour at most), and
 * cannot change the password, email, factors or passkeys.
 */
import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { unwrap } from '../../api/clients';
import { fieldErrors } from '@gatehouse/ui-shared';
import { useAdminApi } from '../../auth/AuthContext';
import { ReauthenticationCancelled, useReauthentication } from '../../auth/Reauthenticate';
import { FormActions } from '../../ui/FormActions';
import { FormProblem } from '../../ui/FormProblem';

const FIELDS = ['reason', 'redirect_url'] as const;
const DEFAULT = '';

export function SignInAsUserButton({
  userId,
  email,
  projectId,
}: {
  userId: string;
  email: string;
  projectId: string;
}) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const { withProof, dialog, asking } = useReauthentication(
    'Signing in as a user needs a recent proof of identity.',
  );
  // The session a link opened and its audit events show once the dialog closes.
  const close = () => {
    setOpen(false);
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: ['user', userId] }),
      queryClient.invalidateQueries({ queryKey: ['audit'] }),
    ]);
  };
  return (
    <>
      <Button variant="default" size="xs" onClick={() => setOpen(true)}>
        Sign in as user
      </Button>
      <Modal
        opened={open && !asking}
        onClose={close}
        title={`Sign in as ${email}`}
        centered
        size="lg"
        keepMounted
      >
        {open && (
          <SignInAsUserForm
            userId={userId}
            email={email}
            projectId={projectId}
            withProof={withProof}
            onClose={close}
          />
        )}
      </Modal>
      {dialog}
    </>
  );
}

function SignInAsUserForm({
  userId,
  email,
  projectId,
  withProof,
  onClose,
}: {
  userId: string;
  email: string;
  projectId: string;
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
  onClose: () => void;
}) {
  const api = useAdminApi();
  const project = useQuery({
    queryKey: ['project', projectId],
    queryFn: () =>
      unwrap(api.GET('/v1/admin/projects/{id}', { params: { path: { id: projectId } } })),
  });
  const [reason, setReason] = useState('');
  const [redirect, setRedirect] = useState<string>(DEFAULT);
  const link = useMutation({
    mutationFn: () =>
      withProof(() =>
        unwrap(
          api.POST('/v1/admin/users/{id}/impersonate', {
            params: { path: { id: userId } },
            body: { reason: reason.trim(), ...(redirect ? { redirect_url: redirect } : {}) },
          }),
        ),
      ),
  });
  const errors = fieldErrors(link.error, FIELDS);
  const failed = link.error instanceof ReauthenticationCancelled ? null : link.error;
  const fallback =
    project.data?.settings.default_redirect_url ?? project.data?.redirect_urls[0] ?? null;
  const options = [
    { value: DEFAULT, label: fallback ? `Project default (${fallback})` : 'Project default' },
    ...(project.data?.redirect_urls ?? [])
      .filter((u) => u !== fallback)
      .map((u) => ({ value: u, label: u })),
  ];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    link.mutate();
  };

  if (link.data)
    return (
      <OneTimeLink
        url={link.data.url}
        expiresAt={link.data.expires_at}
        email={email}
        onClose={onClose}
      />
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          You get a one-time link that opens a session of {email} in a new tab, to see what they
          see. The session is marked as yours in the audit log and in their session list; it ends
          within an hour and cannot change their password, email, second factors or passkeys.
        </Text>
        <Textarea
          label="Reason"
          description="Kept in the audit log (1–500 characters), e.g. the support ticket"
          required
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.fields.reason}
          data-autofocus
        />
        <Select
          label="Open at"
          description="One of the project’s registered redirect URLs"
          data={options}
          value={redirect}
          onChange={(v) => setRedirect(v ?? DEFAULT)}
          allowDeselect={false}
          error={
            errors.fields.redirect_url ??
            (project.isError ? 'Could not load the project’s redirect URLs' : undefined)
          }
          comboboxProps={{ withinPortal: true }}
        />
        {project.data &&
          project.data.redirect_urls.length === 0 &&
          !project.data.settings.default_redirect_url && (
            <Alert
              color="yellow"
              variant="light"
              styles={{ title: { color: 'var(--mantine-color-text)' } }}
              title="No redirect URL"
            >
              <Text size="sm">
                The project has no redirect URL to land on: add one on the project’s page first.
              </Text>
            </Alert>
          )}
        <FormProblem error={failed} fields={FIELDS} title="Could not create the link" />
        <FormActions
          onCancel={onClose}
          submitLabel="Create sign-in link"
          busy={link.isPending}
          disabled={!reason.trim()}
        />
      </Stack>
    </form>
  );
}

/** The link, to open once within 60 s: a new tab (a click, so no pop-up blocker stops it), or copied into a private window. */
function OneTimeLink({
  url,
  expiresAt,
  email,
  onClose,
}: {
  url: string;
  expiresAt: string;
  email: string;
  onClose: () => void;
}) {
  const left = useSecondsLeft(expiresAt);
  const [opened, setOpened] = useState(false);
  return (
    <Stack>
      <Text size="sm" role="status">
        {left > 0
          ? `The link works once, for ${left} more seconds.`
          : 'The link has expired: close this and create a new one.'}
      </Text>
      <Text size="sm" c="dimmed">
        Opening it signs this browser in as {email} on the auth service, replacing your own sign-in
        there; to stay signed in to the console for longer than your current token lasts, copy the
        link into a private window instead.
      </Text>
      <Group>
        <Button
          component="a"
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          disabled={left <= 0 || opened}
          onClick={() => setOpened(true)}
        >
          Open as {email} in a new tab
        </Button>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              color={copied ? 'teal.9' : undefined}
              onClick={copy}
              disabled={left <= 0}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
        <Button variant="subtle" onClick={onClose}>
          Done
        </Button>
      </Group>
      {opened && (
        <Text size="sm">
          Opened in a new tab. It is a one-time link: to look again, create a new one.{' '}
          <Anchor component="button" type="button" size="sm" onClick={onClose}>
            Close
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

function useSecondsLeft(until: string): number {
  const compute = () => Math.max(0, Math.round((Date.parse(until) - Date.now()) / 1000));
  const [left, setLeft] = useState(compute);
  useEffect(() => {
    const timer = setInterval(() => setLeft(compute()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return left;
}
