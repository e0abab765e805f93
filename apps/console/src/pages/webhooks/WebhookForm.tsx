/** The fields of a webhook (URL, events, description, and on creation whether it starts enabled), with the server's field errors under each. */
import { Checkbox, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { ApiProblem, ProblemAlert } from '@gatehouse/ui-shared';
import { EVENT_OPTIONS, nextEvents, type WebhookEvent } from './events';
import { FormActions } from '../../ui/FormActions';
import { useFormValues } from '../../ui/useFormValues';

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
  const { values, set, errors, submit } = useFormValues(initial, {
    error,
    fields: FIELDS,
    onSubmit,
  });
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
        <FormActions onCancel={onCancel} submitLabel={submitLabel} busy={busy} />
      </Stack>
    </form>
  );
}
