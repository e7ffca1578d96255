/** A coloured tag for a classification, action, status or label. */
export function Pill({ value, kind }: { value: string | null; kind?: string }) {
  if (!value) return <span className="pill pill-none">–</span>;
  return <span className={`pill pill-${kind ?? value}`}>{value.replace(/_/g, ' ')}</span>;
}
