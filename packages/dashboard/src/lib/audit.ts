/** The fields a change touched: `score: 30 → 50`; a create or delete lists what it held. */
export function changes(before: unknown, after: unknown): string[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => !['updatedAt', 'createdAt', 'id', 'siteId'].includes(k),
  );
  if (before === null || before === undefined) return keys.map((k) => `${k}: ${show(a[k])}`);
  if (after === null || after === undefined) return keys.map((k) => `${k}: ${show(b[k])}`);
  return keys
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) =>
      k in b && !(k === 'added' || k === 'removed')
        ? `${k}: ${show(b[k])} → ${show(a[k])}`
        : `${k}: ${show(a[k])}`,
    );
}
