import { useEffect, useRef, useState } from 'react';
import { celErrorPosition } from '../api/errors.ts';
import { lineColumn, offsetOf } from '../lib/text.ts';

/**
 * A CEL expression field: monospace, Tab indents, shows the caret's line and column, and shows
 * the server's compile errors inline with their position (a click puts the caret there).
 */
export function ExpressionEditor({
  id,
  value,
  onChange,
  errors,
  readOnly,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[] | undefined;
  readOnly?: boolean;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState({ line: 1, column: 1 });
  const first = errors?.[0];
  const parsed = first ? celErrorPosition(first) : null;
  const frame = first ? first.split('\n').slice(1).join('\n').replace(/^\n+/, '') : '';

  const track = () => {
    const el = ref.current;
    if (el) setCaret(lineColumn(el.value, el.selectionStart));
  };
  const jump = () => {
    const el = ref.current;
    if (!el || !parsed?.position) return;
    const at = offsetOf(el.value, parsed.position.line, parsed.position.column);
    el.focus();
    el.setSelectionRange(at, at);
    track();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the text changes
  useEffect(track, [value]);

  return (
    <div className={`field${first ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Expression (CEL, returns bool)</label>
      <textarea
        id={id}
        ref={ref}
        className="editor"
        rows={5}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        readOnly={readOnly}
        value={value}
        aria-invalid={first ? true : undefined}
        aria-describedby={`${id}-hint${first ? ` ${id}-error` : ''}`}
        onChange={(e) => onChange(e.target.value)}
        onKeyUp={track}
        onClick={track}
        onKeyDown={(e) => {
          // Tab inserts two spaces; Escape then Tab (or Shift+Tab) still leaves the field.
          if (e.key === 'Tab' && !e.shiftKey && !readOnly && !e.currentTarget.dataset.escaped) {
            e.preventDefault();
            const el = e.currentTarget;
            const { selectionStart: s, selectionEnd: end } = el;
            onChange(`${el.value.slice(0, s)}  ${el.value.slice(end)}`);
            requestAnimationFrame(() => el.setSelectionRange(s + 2, s + 2));
          }
          if (e.key === 'Escape') e.currentTarget.dataset.escaped = '1';
          else if (e.key !== 'Tab') delete e.currentTarget.dataset.escaped;
        }}
      />
      <p className="hint" id={`${id}-hint`}>
        Line {caret.line}, column {caret.column}. Variables: <code>event</code>, <code>features</code>,{' '}
        <code>signals</code>, <code>identity</code>, <code>device</code>, <code>ip</code>, <code>score</code>.
        Functions <code>inList</code>, <code>ipInList</code>, <code>emailDomain</code>. Tab indents (Esc, then
        Tab leaves).
      </p>
      {first && parsed ? (
        <div className="field-errors" id={`${id}-error`} role="alert" data-testid="expression-error">
          <p>
            <strong>{parsed.summary}</strong>
            {parsed.position ? (
              <>
                {' '}
                at{' '}
                <button type="button" className="link-button" onClick={jump}>
                  line {parsed.position.line}, column {parsed.position.column}
                </button>
              </>
            ) : null}
          </p>
          {frame ? <pre className="error-pointer">{frame}</pre> : null}
          {errors.slice(1).map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
