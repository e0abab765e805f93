/**
 * "Rotate secret" (★, docs/api-contract.md §13): a new signing secret, shown once; for 24 hours every delivery
 * carries both signatures (`v1,<new> v1,<old>`), so the endpoint keeps verifying while it switches.
 * The control plane asks for a recent proof of the admin's identity; the dialog for it opens in place.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/clients';
import { ReauthenticationCancelled, useReauthentication } from '../../auth/Reauthenticate';
import { useAdminApi } from '../../auth/AuthContext';
import { ProblemAlert } from '@gatehouse/ui-shared';
import { SecretOnce } from '../../ui/SecretOnce';

export function RotateSecret({ webhookId }: { webhookId: string }) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const proof = useReauthentication('Rotating a webhook’s signing secret is a sensitive action.');
  const rotate = useMutation({
    mutationFn: () =>
      proof.withProof(() =>
        unwrap(
          api.POST('/v1/admin/webhooks/{id}/secret/rotate', {
            params: { path: { id: webhookId } },
            body: {},
          }),
        ),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['audit'] }),
  });
  const close = () => {
    setOpen(false);
    rotate.reset();
  };
  return (
    <>
      <Button variant="default" size="xs" onClick={() => setOpen(true)}>
        Rotate secret
      </Button>
      <Modal
        opened={open && !proof.asking}
        onClose={close}
        title="Rotate the signing secret?"
        centered
        size="lg"
      >
        {rotate.data ? (
          <Stack>
            <SecretOnce label="New signing secret" secret={rotate.data.secret} />
            <Text size="sm">
              For the next 24 hours every delivery is signed with both secrets (
              <code>webhook-signature: v1,&lt;new&gt; v1,&lt;old&gt;</code>): put the new one in
              your endpoint now; the old one stops being used after 24 hours.
            </Text>
            <Group justify="flex-end">
              <Button onClick={close}>Done</Button>
            </Group>
          </Stack>
        ) : (
          <Stack>
            <Text size="sm">
              A new signing secret is made and shown once. The old one stays valid for 24 hours:
              until then every delivery carries both signatures, so your endpoint keeps verifying
              while you switch it to the new secret.
            </Text>
            <ProblemAlert
              error={rotate.error instanceof ReauthenticationCancelled ? null : rotate.error}
              title="The secret was not rotated"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button loading={rotate.isPending} onClick={() => rotate.mutate()}>
                Rotate secret
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {proof.dialog}
    </>
  );
}
