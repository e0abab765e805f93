import { Fragment } from 'react';

/**
 * A URL (or any long path-like value) that wraps only after a `/` or a `?`, never inside a host
 * name or a word: each of those characters is followed by a line-break opportunity (`<wbr>`).
 */
export function UrlText({ value }: { value: string }) {
  const parts = value.split(/(?<=[/?])/);
  return (
    <span style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
