import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../hooks/useRoute.ts';

/** A real link (middle-click, copy address work) that navigates in the page on a plain click. */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    if (event.altKey || rest.target === '_blank') return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}
