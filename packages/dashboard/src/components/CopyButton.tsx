import { useState } from 'react';

/** Copies `value` to the clipboard and says so. */
export function CopyButton({
  value,
  label = 'Copy',
  name,
}: {
  value: string;
  label?: string;
  name?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button
      type="button"
      className="button small"
      onClick={copy}
      aria-label={state === 'idle' ? name : undefined}
      aria-live="polite"
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text' : label}
    </button>
  );
}

/** A secret or key shown in full, selectable, with a copy button. */
export function SecretValue({ value, label }: { value: string; label: string }) {
  return (
    <div className="secret">
      <code className="secret-value" title={label}>
        {value}
      </code>
      <CopyButton value={value} name={`Copy ${label}`} />
    </div>
  );
}
