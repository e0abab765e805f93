import { fieldErrors } from '@gatehouse/ui-shared';
import { useState, type FormEvent } from 'react';

/**
 * A form of several values handed on as one object: `set` changes one value, `errors` maps the
 * server's field errors onto `fields`, `submit` hands the values to `onSubmit`.
 */
export function useFormValues<T extends object>(
  initial: T,
  {
    error,
    fields,
    onSubmit,
  }: { error: unknown; fields: readonly string[]; onSubmit: (values: T) => void },
) {
  const [values, setValues] = useState<T>(initial);
  const set = <K extends keyof T>(key: K, value: T[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(values);
  };
  return { values, set, errors: fieldErrors(error, fields), submit };
}
