import { JsonInput, type JsonInputProps } from '@mantine/core';
import { json } from './format';

/** The text of a metadata object as the editor shows it. */
export function metadataText(value: Record<string, unknown> | null | undefined): string {
  return value && Object.keys(value).length > 0 ? json(value) : '{}';
}

/** The metadata object a text holds, or why it is not one (checked before anything is sent). */
export function parseMetadata(
  text: string,
): { value: Record<string, unknown>; error: null } | { value: null; error: string } {
  if (!text.trim()) return { value: {}, error: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return {
      value: null,
      error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { value: null, error: 'Must be a JSON object, e.g. {"plan": "pro"}' };
  return { value: parsed as Record<string, unknown>, error: null };
}

/** A JSON editor for a `metadata` object: syntax checked on blur and formatted; `error` shows the server's or the submit check's message. */
export function MetadataInput(
  props: Omit<JsonInputProps, 'formatOnBlur' | 'validationError' | 'autosize'>,
) {
  return (
    <JsonInput
      label="Metadata (JSON object)"
      formatOnBlur
      autosize
      minRows={3}
      maxRows={16}
      validationError="Not valid JSON"
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      {...props}
    />
  );
}
