/** The fields of a webhook (URL, events, description, and on creation whether it starts enabled), with the server's field errors under each. */
import { Button, Checkbox, Group, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiProblem, fieldErrors } from '../../api/problem';
import { ProblemAlert } from '../../ui/ProblemAlert';
import { EVENT_OPTIONS, nextEvents, type WebhookEvent } from './events';

export interface WebhookValues {
  url: string;
  events: WebhookEvent[];
  description: string;
  enabled: boolean;
}

const FIELDS = ['url', 'events', 'description', 'enabled'] as const;

export function WebhookForm({
  initial,
  withEnabled,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial: WebhookValues;
  withEnabled?: boolean;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (values: WebhookValues) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<WebhookValues>(initial);
  const set = <K extends keyof WebhookValues>(key: K, value: WebhookValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const errors = fieldErrors(error, FIELDS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(values);
  };
  const onFields =
    error instanceof ApiProblem &&
    error.slug === 'validation-error' &&
    Object.keys(errors.fields).length > 0 &&
    errors.other.length === 0;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Endpoint URL"
          description="http(s) URL that receives the signed POSTs"
          placeholder="https://example.com/webhooks/gatehouse"
          required
          type="url"
          value={values.url}
          onChange={(e) => set('url', e.currentTarget.value)}
          error={errors.fields.url}
        />
        <MultiSelect
          label="Events"
          description="Choose event types, or “All events” for every event of the tenant"
          placeholder={values.events.length ? undefined : 'Pick events'}
          required
          searchable
          data={EVENT_OPTIONS}
          value={values.events}
          onChange={(next) => set('events', nextEvents(values.events, next))}
          error={errors.fields.events}
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={280}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          maxLength={500}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={errors.fields.description}
        />
        {withEnabled && (
          <Checkbox
            label="Enabled"
            checked={values.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
            error={errors.fields.enabled}
          />
        )}
        {!onFields && <ProblemAlert error={error} title="Not saved" />}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
