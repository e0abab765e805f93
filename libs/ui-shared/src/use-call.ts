import { useState } from 'react';

/**
 * Runs one call at a time for a form with several ways to submit (password, passkey, link…),
 * keeping its error: `busy` names the way whose call runs, `error` is set once a call failed.
 */
export function useCallOf<Way extends string>() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<Way | null>(null);
  const run = (way: Way, work: () => Promise<void>) => {
    setBusy(way);
    setError(null);
    work()
      .catch(setError)
      .finally(() => setBusy(null));
  };
  return { error, setError, busy, run };
}

/** Runs one call at a time for a form, keeping its error: `busy` while it runs, `error` once it failed. */
export function useCall() {
  const { error, setError, busy, run } = useCallOf<'call'>();
  return {
    error,
    setError,
    busy: busy !== null,
    run: (work: () => Promise<void>) => run('call', work),
  };
}
