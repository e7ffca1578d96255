import { useCallback, useState } from 'react';

/** A user-triggered request (save, delete, rotate…): its running flag and its last error. */
export function useAction<A extends unknown[], T>(run: (...args: A) => Promise<T>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const execute = useCallback(
    async (...args: A): Promise<T | undefined> => {
      setBusy(true);
      setError(null);
      try {
        return await run(...args);
      } catch (err) {
        setError(err);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [run],
  );
  return { execute, busy, error, setError };
}
