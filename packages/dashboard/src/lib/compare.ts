/** A count against the previous period: the signed change and its relative size, for "vs previous". */
export function change(
  current: number,
  previous: number,
): { text: string; direction: 'up' | 'down' | 'same' } {
  if (current === previous) return { text: '±0', direction: 'same' };
  const direction = current > previous ? 'up' : 'down';
  const diff = current - previous;
  const sign = diff > 0 ? '+' : '−';
  if (previous === 0) return { text: `${sign}${Math.abs(diff)} (new)`, direction };
  const pct = Math.round((Math.abs(diff) / previous) * 100);
  return { text: `${sign}${Math.abs(diff)} (${sign}${pct}%)`, direction };
}
