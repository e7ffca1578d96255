import { useEffect, useState } from 'react';
import { matchRoute, type Route } from '../lib/router.ts';

const EVENT = 'warden:navigate';

/** Push (or replace) a dashboard URL and re-render the router. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(EVENT));
  window.scrollTo(0, 0);
}

function current(): { route: Route; search: string } {
  return { route: matchRoute(location.pathname), search: location.search };
}

export function useRoute(): { route: Route; search: string } {
  const [state, setState] = useState(current);
  useEffect(() => {
    const update = () => setState(current());
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    // A child may have navigated before this listener existed (child effects run first).
    update();
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return state;
}
