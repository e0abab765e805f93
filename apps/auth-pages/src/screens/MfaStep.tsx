import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { AuthApi, SignedIn } from '../api/client';
import { ApiProblem, CodeInput, FactorChoice, ProblemAlert, useCall } from '@gatehouse/ui-shared';

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
  const { error, setError, busy, run } = useCall();
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
        <FactorChoice
          factors={factors}
          label={(f) => FACTOR_LABELS[f]}
          value={factor}
          onChange={(v) => {
            setFactor(v);
            setCode('');
            setError(null);
          }}
        />
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
        <CodeInput
          backupCode={factor === 'backup_code'}
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
