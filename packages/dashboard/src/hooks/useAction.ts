import { useCallback, useState } from 'react';
import { ApiError, fieldErrors as fieldErrorsOf } from '../api/errors.ts';

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

/**
 * useAction for a form that the server validates: a `validation_failed` answer's details, by field
 * (`body.` dropped), land in `fieldErrors` for the inputs to show; they are cleared on each run.
 * The error itself still becomes `error`, so a form can show a summary when no field claims it.
 */
export function useFormAction<A extends unknown[], T>(run: (...args: A) => Promise<T>) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const action = useAction(async (...args: A) => {
    setFieldErrors({});
    try {
      return await run(...args);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_failed')
        setFieldErrors(fieldErrorsOf(err.details));
      throw err;
    }
  });
  return { ...action, fieldErrors };
}
