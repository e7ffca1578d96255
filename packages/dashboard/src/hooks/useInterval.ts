import { useEffect, useRef } from 'react';

/** Calls `callback` every `ms` while `enabled` (and the tab is visible). */
export function useInterval(callback: () => void, ms: number, enabled = true): void {
  const saved = useRef(callback);
  saved.current = callback;
  useEffect(() => {
    if (!enabled) return;
    const id = window.setInterval(() => {
      if (document.visibilityState === 'visible') saved.current();
    }, ms);
    return () => window.clearInterval(id);
  }, [ms, enabled]);
}
