/**
 * A ★ action of docs/api-contract.md §13 (remove a factor, reset MFA) behind a confirmation dialog: when the
 * control plane answers 403 `reauthentication-required`, the confirmation steps aside for the
 * "Confirm it's you" dialog (useReauthentication) and the action is repeated once the admin has
 * proved their identity; a cancelled proof closes both, the action not done.
 */
import type { ComponentProps } from 'react';
import { ReauthenticationCancelled, useReauthentication } from '../../auth/Reauthenticate';
import { ConfirmButton } from '../../ui/ConfirmButton';

export function SensitiveButton({
  reason,
  onConfirm,
  ...props
}: Omit<ComponentProps<typeof ConfirmButton>, 'hidden'> & { reason: string }) {
  const { withProof, dialog, asking } = useReauthentication(reason);
  const confirm = () =>
    withProof(onConfirm).catch((err: unknown) => {
      if (!(err instanceof ReauthenticationCancelled)) throw err;
    });
  return (
    <>
      <ConfirmButton {...props} hidden={asking} onConfirm={confirm} />
      {dialog}
    </>
  );
}
