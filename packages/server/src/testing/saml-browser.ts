/**
 * What a browser does with the SAML pages in tests: read the IdP's auto-submitting form, and the
 * tokens in the fragment of the ACS's redirect to the dashboard.
 */
export interface AutoPostForm {
  action: string;
  fields: Record<string, string>;
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The IdP page's auto-submitting form, as a browser would read it. */
export function formOf(html: string): AutoPostForm {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in the IdP page: ${html.slice(0, 200)}`);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = unescapeHtml(m[2]!);
  }
  return { action: unescapeHtml(action), fields };
}

export function fragmentOf(location: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(location.split('#')[1] ?? ''));
}
