/**
 * Deleting a project (★, docs/api-contract.md §13): its users, keys, clients and sessions go with it, so the
 * admin types the project's name to confirm, and the control plane asks for a recent proof of
 * identity (the dialog for it opens in place, then the deletion is repeated). The console's own
 * project is refused (409), shown in the dialog.
 */
import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { unwrap } from '../../api/clients';
import { useAdminApi } from '../../auth/AuthContext';
import { ReauthenticationCancelled, useReauthentication } from '../../auth/Reauthenticate';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { FormActions } from '../../ui/FormActions';

export function DeleteProject({ project }: { project: { id: string; name: string } }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const proof = useReauthentication('Deleting a project is a sensitive action.');
  const matches = typed.trim() === project.name;
  const close = () => {
    setOpen(false);
    setTyped('');
    setError(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!matches) return;
    setBusy(true);
    setError(null);
    proof
      .withProof(() =>
        unwrap(api.DELETE('/v1/admin/projects/{id}', { params: { path: { id: project.id } } })),
      )
      .then(async () => {
        queryClient.removeQueries({ queryKey: ['project', project.id] });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ['projects'] }),
          queryClient.invalidateQueries({ queryKey: ['stats'] }),
          queryClient.invalidateQueries({ queryKey: ['audit'] }),
        ]);
        close();
        await navigate('/projects');
      })
      .catch((err: unknown) => setError(err instanceof ReauthenticationCancelled ? null : err))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button color="red" variant="light" onClick={() => setOpen(true)}>
        Delete project
      </Button>
      <Modal
        opened={open && !proof.asking}
        onClose={close}
        title={`Delete ${project.name}?`}
        centered
      >
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              Its users, their sessions, API keys, signing keys and OpenID Connect clients are
              deleted with it, and every app using its keys stops working. This cannot be undone.
            </Text>
            <TextInput
              label={`Type the project’s name, ${project.name}, to confirm`}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
            />
            <ProblemAlert error={error} title="The project was not deleted" />
            <FormActions
              onCancel={close}
              submitLabel="Delete project"
              busy={busy}
              disabled={!matches}
              color="red.9"
            />
          </Stack>
        </form>
      </Modal>
      {proof.dialog}
    </>
  );
}
