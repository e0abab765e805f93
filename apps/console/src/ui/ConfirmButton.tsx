import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ProblemAlert } from '@gatehouse/ui-shared';

/**
 * A destructive action behind a confirmation dialog; the server's refusal (e.g. the last-admin rule)
 * is shown in the dialog. `hidden` steps the dialog aside while another one asks something on its
 * behalf (the proof of identity of a ★ action, users/SensitiveButton).
 */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel,
  problemTitle,
  onConfirm,
  hidden = false,
  ...button
}: ButtonProps & {
  label: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  /** The refusal's heading (default: the problem's title), its detail below. */
  problemTitle?: string;
  onConfirm: () => Promise<unknown>;
  hidden?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    setOpen(false);
    setError(null);
  };
  return (
    <>
      <Button color="red" variant="light" size="xs" {...button} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open && !hidden} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <ProblemAlert error={error} title={problemTitle} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red.9"
              loading={busy}
              onClick={() => {
                setBusy(true);
                setError(null);
                onConfirm()
                  .then(close)
                  .catch(setError)
                  .finally(() => setBusy(false));
              }}
            >
              {confirmLabel ?? 'Confirm'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
