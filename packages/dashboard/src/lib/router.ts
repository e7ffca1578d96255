/** Routes of the dashboard: history URLs under /dashboard/ (the server falls back to index.html). */
export const BASE = '/dashboard';

export type Route =
  | { name: 'overview' }
  | { name: 'decisions' }
  | { name: 'queue' }
  | { name: 'decision'; id: string }
  | { name: 'cluster'; id: string }
  | { name: 'rules' }
  | { name: 'rule'; id: string | null }
  | { name: 'lists' }
  | { name: 'sites' }
  | { name: 'webhooks' }
  | { name: 'members' }
  | { name: 'sso' }
  | { name: 'audit' }
  | { name: 'sign-in' }
  | { name: 'sso-callback' }
  | { name: 'invite' }
  | { name: 'not-found'; path: string };

const SIMPLE = [
  'decisions',
  'queue',
  'rules',
  'lists',
  'sites',
  'webhooks',
  'members',
  'sso',
  'audit',
  'sign-in',
  'sso-callback',
  'invite',
];

/** `/dashboard/decisions/abc` → `{name: 'decision', id: 'abc'}`. */
export function matchRoute(pathname: string): Route {
  let rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  rest = rest.replace(/^\/+|\/+$/g, '');
  if (rest === '' || rest === 'overview') return { name: 'overview' };
  const parts = rest.split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const [head, id, ...more] = parts;
  if (more.length === 0 && id !== undefined && id !== '') {
    if (head === 'decisions') return { name: 'decision', id };
    if (head === 'clusters') return { name: 'cluster', id };
    if (head === 'rules') return { name: 'rule', id: id === 'new' ? null : id };
  }
  if (parts.length === 1 && head && SIMPLE.includes(head)) return { name: head } as Route;
  return { name: 'not-found', path: pathname };
}

/** The URL path of a dashboard page: `href('decisions', id)` → `/dashboard/decisions/<id>`. */
export function href(...segments: string[]): string {
  return `${BASE}/${segments.map(encodeURIComponent).join('/')}`;
}
