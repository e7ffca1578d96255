import { useEffect, useRef, useState } from 'react';
import { celErrorPosition } from '../api/errors.ts';
import { type completionSource, completionsAt } from '../lib/cel-completions.ts';
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
  completions,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[] | undefined;
  readOnly?: boolean;
  /** Autocomplete source (variables, signals, lists); none: no suggestions. */
  completions?: ReturnType<typeof completionSource> | undefined;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState({ line: 1, column: 1 });
  const [suggest, setSuggest] = useState<{
    word: string;
    at: number;
    items: ReturnType<typeof completionsAt>['items'];
  }>({
    word: '',
    at: 0,
    items: [],
  });
  const [active, setActive] = useState(0);
  const open = suggest.items.length > 0;

  const refresh = (el: HTMLTextAreaElement) => {
    if (!completions || readOnly || el.selectionStart !== el.selectionEnd)
      return setSuggest({ word: '', at: 0, items: [] });
    const found = completionsAt(completions, el.value.slice(0, el.selectionStart));
    setSuggest({ ...found, at: el.selectionStart });
    setActive(0);
  };
  const accept = (index: number) => {
    const el = ref.current;
    const item = suggest.items[index];
    if (!el || !item) return;
    const start = suggest.at - suggest.word.length;
    const next = `${el.value.slice(0, start)}${item.insert}${el.value.slice(suggest.at)}`;
    const caretAt = start + item.insert.length;
    onChange(next);
    setSuggest({ word: '', at: 0, items: [] });
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(caretAt, caretAt);
    });
  };
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
        aria-controls={completions ? `${id}-suggestions` : undefined}
        aria-autocomplete={completions ? 'list' : undefined}
        aria-activedescendant={open ? `${id}-suggestion-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          refresh(e.target);
        }}
        onKeyUp={track}
        onClick={track}
        onBlur={() => setSuggest({ word: '', at: 0, items: [] })}
        onKeyDown={(e) => {
          if (open) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const n = suggest.items.length;
              setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
              return;
            }
            if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault();
              accept(active);
              return;
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              setSuggest({ word: '', at: 0, items: [] });
              return;
            }
          }
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
      {open ? (
        <div className="suggestions" id={`${id}-suggestions`} role="listbox" aria-label="Suggestions">
          {suggest.items.map((item, i) => (
            <div
              key={item.insert}
              id={`${id}-suggestion-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(i);
              }}
            >
              <code>{item.insert}</code> <span className="muted">{item.detail}</span>
            </div>
          ))}
        </div>
      ) : null}
      <p className="hint" id={`${id}-hint`}>
        Line {caret.line}, column {caret.column}. Variables: <code>event</code>, <code>features</code>,{' '}
        <code>signals</code>, <code>identity</code>, <code>device</code>, <code>ip</code>, <code>score</code>.
        Functions <code>inList</code>, <code>ipInList</code>, <code>emailDomain</code>. Suggestions appear as
        you type (↑ ↓, Enter or Tab to take one). Tab indents (Esc, then Tab leaves).
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
