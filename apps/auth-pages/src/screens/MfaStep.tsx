import { Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { AuthApi, SignedIn } from '../api/client';
import { ApiProblem } from '../api/problem';
import { ProblemAlert } from '../ui/ProblemAlert';

export type Factor = 'totp' | 'sms' | 'backup_code';
export const ALL_FACTORS: readonly Factor[] = ['totp', 'sms', 'backup_code'];
const FACTOR_LABELS: Record<Factor, string> = {
  totp: 'Authenticator app',
  sms: 'Text message',
  backup_code: 'Backup code',
};

export function factorsOf(available: readonly string[]): Factor[] {
  const known = available.filter((f): f is Factor =>
    (ALL_FACTORS as readonly string[]).includes(f),
  );
  return known.length > 0 ? known : [...ALL_FACTORS];
}

/** The second step of a sign-in: a code from the authenticator app, a text message or a backup code. */
export function MfaStep({
  api,
  mfaToken,
  factors,
  onDone,
  onCancel,
}: {
  api: AuthApi;
  mfaToken: string;
  factors: Factor[];
  onDone: (answer: SignedIn) => Promise<void>;
  onCancel: () => void;
}) {
  return (
    <CodeForm
      factors={factors}
      intro="Enter a code to finish signing in."
      note="This sign-in attempt ends after 5 minutes or 5 wrong codes."
      cancelLabel="Start over"
      onCancel={onCancel}
      verify={async (factor, code) =>
        onDone(
          await api.call<SignedIn>('POST', '/v1/auth/mfa/verify', {
            mfa_token: mfaToken,
            factor,
            code,
          }),
        )
      }
      sendSms={async () =>
        void (await api.call('POST', '/v1/auth/mfa/sms/send', { mfa_token: mfaToken }))
      }
    />
  );
}

/** A code of one of the factors (the choice shown when there are several), with a send button for text messages. */
export function CodeForm({
  factors,
  intro,
  note,
  cancelLabel,
  onCancel,
  verify: submitCode,
  sendSms: textCode,
}: {
  factors: readonly Factor[];
  intro: string;
  note: string | null;
  cancelLabel: string;
  onCancel: () => void;
  verify: (factor: Factor, code: string) => Promise<void>;
  sendSms: () => Promise<void>;
}) {
  const [factor, setFactor] = useState<Factor>(factors[0] ?? 'totp');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    work()
      .catch(setError)
      .finally(() => setBusy(false));
  };
  const verify = (e: FormEvent) => {
    e.preventDefault();
    run(() => submitCode(factor, code.trim()));
  };
  const sendSms = () =>
    run(async () => {
      await textCode();
      setSent(true);
    });
  const codeError = error instanceof ApiProblem ? error.fieldError('code') : undefined;
  return (
    <form onSubmit={verify} noValidate>
      <Stack>
        <Text size="sm">{intro}</Text>
        {factors.length > 1 && (
          <SegmentedControl
            aria-label="Verification method"
            value={factor}
            onChange={(v) => {
              setFactor(v);
              setCode('');
              setError(null);
            }}
            data={factors.map((f) => ({ value: f, label: FACTOR_LABELS[f] }))}
          />
        )}
        {factor === 'sms' && (
          <Button variant="default" onClick={sendSms} loading={busy && !sent}>
            {sent ? 'Send another code' : 'Text me a code'}
          </Button>
        )}
        {factor === 'sms' && sent && (
          <Text size="sm" role="status">
            We sent a code to your phone.
          </Text>
        )}
        <TextInput
          label={factor === 'backup_code' ? 'Backup code' : '6-digit code'}
          autoComplete="one-time-code"
          inputMode={factor === 'backup_code' ? 'text' : 'numeric'}
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={codeError}
        />
        <ProblemAlert error={codeError ? null : error} title="Verification failed" />
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            {cancelLabel}
          </Anchor>
          <Button type="submit" loading={busy}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
