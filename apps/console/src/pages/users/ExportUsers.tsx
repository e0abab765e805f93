/**
 * Users → Export users: one project's users as the NDJSON of `GET /v1/admin/projects/{id}/users/export`
 * (docs/migration.md), downloaded as a file. With password hashes and TOTP secrets the control
 * plane asks for a recent proof of identity, asked here in place (useReauthentication) before the
 * export is made again.
 */
import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/clients';
import { useAdminApi } from '../../auth/AuthContext';
import { ReauthenticationCancelled, useReauthentication } from '../../auth/Reauthenticate';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { downloadBlob } from '../../ui/download';
import { ProjectSelect } from '../../ui/ProjectSelect';

export function ExportUsersButton({ projectId }: { projectId: string | null }) {
  const api = useAdminApi();
  const [open, setOpen] = useState(false);
  const [project, setProject] = useState<string | null>(projectId);
  const [withSecrets, setWithSecrets] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const { withProof, dialog, asking } = useReauthentication(
    'Exporting password hashes and TOTP secrets needs a recent proof of identity.',
  );

  const close = () => {
    setOpen(false);
    setError(null);
  };
  const exportUsers = (id: string) =>
    unwrap(
      api.GET('/v1/admin/projects/{id}/users/export', {
        params: { path: { id }, query: withSecrets ? { include_password_hashes: 'true' } : {} },
        parseAs: 'blob',
      }),
    );

  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          setProject(projectId);
          setWithSecrets(false);
          setOpen(true);
        }}
      >
        Export users
      </Button>
      <Modal opened={open && !asking} onClose={close} title="Export users" centered>
        <Stack>
          <Text size="sm">
            The project’s users as NDJSON, one user a line, in the format the import reads
            (docs/migration.md).
          </Text>
          <ProjectSelect
            label="Project"
            placeholder="Choose a project"
            value={project}
            onChange={setProject}
            required
          />
          <Checkbox
            label="Include password hashes and TOTP secrets"
            checked={withSecrets}
            onChange={(e) => setWithSecrets(e.currentTarget.checked)}
          />
          {withSecrets && (
            <Alert
              color="yellow"
              variant="light"
              title="Secrets"
              styles={{ title: { color: 'var(--mantine-color-text)' } }}
            >
              <Text size="sm">
                The file lets whoever holds it sign in as these users elsewhere. It is recorded in
                the audit log as a security event; keep it safe and delete it once imported.
              </Text>
            </Alert>
          )}
          <ProblemAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              disabled={!project}
              loading={busy}
              onClick={() => {
                if (!project) return;
                setBusy(true);
                setError(null);
                withProof(() => exportUsers(project))
                  .then((blob) => {
                    downloadBlob(blob, `users-${project}.ndjson`);
                    close();
                  })
                  .catch((err: unknown) => {
                    if (!(err instanceof ReauthenticationCancelled)) setError(err);
                  })
                  .finally(() => setBusy(false));
              }}
            >
              Export
            </Button>
          </Group>
        </Stack>
      </Modal>
      {dialog}
    </>
  );
}
