/**
 * Asking the admin for a fresh proof of identity in place (docs/console.md): an action the control
 * plane refuses with 403 `reauthentication-required` (an export with password hashes, an import
 * that may overwrite credentials) opens a dialog for the admin's password, an authenticator or
 * backup code, or a passkey; `POST /v1/auth/reauthenticate` gives the same session a token with a
 * new `auth_time`, which replaces the one in memory, and the action is repeated once.
 */
import {
  Button,
  Group,
  Modal,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { startAuthentication } from '@simplewebauthn/browser';
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { keyHeader, unwrap } from '../api/clients';
import { ApiProblem, networkProblem, ProblemAlert, problemOf } from '@gatehouse/ui-shared';
import { factorName } from '../ui/factor-names';
import { useAuth } from './AuthContext';

type Way = 'password' | 'totp' | 'backup_code' | 'passkey';

/** Whether a failed call asks for a fresh proof. */
export function needsReauthentication(err: unknown): boolean {
  return (
    err instanceof ApiProblem && err.status === 403 && err.slug === 'reauthentication-required'
  );
}

/** A cancelled proof: the action was not repeated. */
export class ReauthenticationCancelled extends Error {
  constructor() {
    super('Re-authentication was cancelled.');
    this.name = 'ReauthenticationCancelled';
  }
}

/**
 * `withProof(action)` runs the action; when it answers `reauthentication-required`, the dialog
 * (render `dialog` once; `asking` while it is open, so a dialog under it can step aside) asks for
 * a proof, then the action runs again. Rejects with ReauthenticationCancelled when the admin
 * closes the dialog.
 */
export function useReauthentication(reason: string): {
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
  dialog: ReactNode;
  asking: boolean;
} {
  const [pending, setPending] = useState<{ done: () => void; cancel: () => void } | null>(null);
  const withProof = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!needsReauthentication(err)) throw err;
      await new Promise<void>((resolve, reject) =>
        setPending({ done: resolve, cancel: () => reject(new ReauthenticationCancelled()) }),
      );
      return action();
    }
  }, []);
  const dialog = (
    <ReauthenticateDialog
      opened={pending !== null}
      reason={reason}
      onDone={() => {
        pending?.done();
        setPending(null);
      }}
      onCancel={() => {
        pending?.cancel();
        setPending(null);
      }}
    />
  );
  return { withProof, dialog, asking: pending !== null };
}

function ReauthenticateDialog({
  opened,
  reason,
  onDone,
  onCancel,
}: {
  opened: boolean;
  reason: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { auth, config, session, projectKey, signedIn } = useAuth();
  const [way, setWay] = useState<Way>('password');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const reset = () => {
    setSecret('');
    setError(null);
    setBusy(false);
  };
  const prove = async (
    body:
      | { password: string }
      | { factor: 'totp' | 'backup_code'; code: string }
      | { credential: Record<string, unknown> },
  ) => {
    // A plain fetch, not the client's: its renew-and-retry on 401 would send a wrong password twice (two failures towards the lockout).
    const res = await fetch(`${config.auth_url}/v1/auth/reauthenticate`, {
      method: 'POST',
      credentials: 'include',
      headers: {
        'Content-Type': 'application/json',
        'X-Service-Project-Key': projectKey ?? '',
        Authorization: `Bearer ${session?.accessToken ?? ''}`,
      },
      body: JSON.stringify(body),
    }).catch((err: unknown) => {
      throw networkProblem(err);
    });
    const answer = (await res.json().catch(() => null)) as { access_token?: string } | null;
    if (!res.ok || typeof answer?.access_token !== 'string')
      throw problemOf(res.status, answer, res.headers);
    // The same session, a new auth_time: the token in memory is replaced (and renewed as before).
    await signedIn(answer.access_token);
  };
  const run = (step: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    step()
      .then(() => {
        reset();
        onDone();
      })
      .catch((err: unknown) => {
        setError(err);
        setBusy(false);
      });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (way === 'password') run(() => prove({ password: secret }));
    else if (way === 'totp' || way === 'backup_code')
      run(() => prove({ factor: way, code: secret.trim() }));
  };
  const passkey = () =>
    run(async () => {
      const options = await unwrap(
        auth.POST('/v1/auth/passkey/authenticate/begin', {
          params: keyHeader(projectKey),
          body: {},
        }),
      );
      const credential = await startAuthentication({ optionsJSON: options });
      await prove({ credential: credential as unknown as Record<string, unknown> });
    });

  return (
    <Modal
      opened={opened}
      onClose={() => {
        reset();
        onCancel();
      }}
      title="Confirm it’s you"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{reason} Prove your identity again to continue.</Text>
          <SegmentedControl
            aria-label="How to confirm"
            value={way}
            onChange={(v) => {
              setWay(v);
              setSecret('');
              setError(null);
            }}
            data={[
              { value: 'password', label: 'Password' },
              { value: 'totp', label: factorName('totp') },
              { value: 'backup_code', label: factorName('backup_code') },
              { value: 'passkey', label: factorName('passkey') },
            ]}
            // Stacked: four ways with their full names do not fit side by side in the dialog.
            orientation="vertical"
            fullWidth
          />
          {way === 'password' && (
            <PasswordInput
              label="Your password"
              autoComplete="current-password"
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              required
              data-autofocus
            />
          )}
          {way === 'totp' && (
            <TextInput
              label="Code from your authenticator app"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              required
              data-autofocus
            />
          )}
          {way === 'backup_code' && (
            <TextInput
              label="Backup code"
              autoComplete="off"
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              required
              data-autofocus
            />
          )}
          {way === 'passkey' && <Text size="sm">Your browser asks for one of your passkeys.</Text>}
          <ProblemAlert
            error={error}
            title={error instanceof ApiProblem ? undefined : 'The passkey was not used'}
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                reset();
                onCancel();
              }}
            >
              Cancel
            </Button>
            {way === 'passkey' ? (
              <Button onClick={passkey} loading={busy}>
                Use a passkey
              </Button>
            ) : (
              <Button type="submit" loading={busy} disabled={!secret.trim()}>
                Confirm
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
