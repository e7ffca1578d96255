/** How a stored value reads in one line: text as is, nothing as `–`, long lists by their size. */
function show(v: unknown): string {
  if (v === undefined || v === null) return '–';
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length > 3) return `${v.length} items`;
  return JSON.stringify(v);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The fields a change touched: `score: 30 → 50`; a create or delete lists what it held. */
export function changes(before: unknown, after: unknown): string[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => !['updatedAt', 'createdAt', 'id', 'siteId'].includes(k),
  );
  if (before === null || before === undefined) return keys.map((k) => `${k}: ${show(a[k])}`);
  if (after === null || after === undefined) return keys.map((k) => `${k}: ${show(b[k])}`);
  return keys
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) =>
      k in b && k in a && !(k === 'added' || k === 'removed')
        ? `${k}: ${show(b[k])} → ${show(a[k])}`
        : k in a
          ? `${k}: ${show(a[k])}`
          : `${k}: ${show(b[k])} (removed)`,
    );
}

interface BulkLabelBefore {
  labels?: Array<{ id: string; label: string | null }>;
}
interface BulkLabelAfter {
  label?: string;
  count?: number;
}
interface EntityState {
  kind?: string;
  value?: string;
  label?: string;
}

/** A decision label: how many decisions got which label, and what they had before. */
function decisionLabel(before: unknown, after: unknown): string[] {
  const a = (after ?? {}) as BulkLabelAfter;
  const previous = ((before ?? {}) as BulkLabelBefore).labels ?? [];
  const was = new Map<string, number>();
  for (const p of previous) was.set(p.label ?? 'unlabelled', (was.get(p.label ?? 'unlabelled') ?? 0) + 1);
  const lines = [`${plural(a.count ?? previous.length, 'decision')} labelled ${a.label ?? '–'}`];
  if (was.size) lines.push(`before: ${[...was].map(([l, n]) => `${n} ${l}`).join(', ')}`);
  return lines;
}

/** An entity label set, changed or undone. */
function entityLabel(action: string, before: unknown, after: unknown): string[] {
  const b = (before ?? null) as EntityState | null;
  const a = (after ?? null) as EntityState | null;
  const entity = a ?? b;
  const what = `${entity?.kind ?? 'entity'} ${entity?.value ?? ''}`.trim();
  if (action === 'entity.unlabel') return [`${what}: label ${b?.label ?? '–'} removed`];
  return [`${what} labelled ${a?.label ?? '–'} as a whole${b?.label ? ` (was ${b.label})` : ''}`];
}

/** The readable lines of an audit entry: special forms for labels, else the fields it changed. */
export function describeChange(action: string, before: unknown, after: unknown): string[] {
  if (action === 'decision.label') return decisionLabel(before, after);
  if (action === 'entity.label' || action === 'entity.unlabel') return entityLabel(action, before, after);
  return changes(before, after);
}
