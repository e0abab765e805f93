import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

/**
 * The text of a box that reports it (trimmed) once typing pauses (`wait` ms), and follows `value`
 * when that changes from outside (back, a link, "clear").
 */
export function useTypedValue(
  value: string,
  onSearch: (value: string) => void,
  wait = 300,
): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, wait);
  const report = useRef(onSearch);
  report.current = onSearch;
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    const next = debounced.trim();
    if (next !== last.current) {
      last.current = next;
      report.current(next);
    }
  }, [debounced]);
  return [text, setText];
}

/** A search box that reports its text once typing pauses (`wait` ms), e.g. to set a list's `?q=`. */
export function SearchInput({
  label,
  value,
  onSearch,
  placeholder,
  wait = 300,
}: {
  label: string;
  value: string;
  onSearch: (value: string) => void;
  placeholder?: string;
  wait?: number;
}) {
  const [text, setText] = useTypedValue(value, onSearch, wait);
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      miw={220}
      style={{ flex: 1 }}
    />
  );
}
