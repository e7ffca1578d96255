import type { BehaviorEvidence } from '../types.ts';

type FormInput = NonNullable<BehaviorEvidence['form']>;

/** Input types whose text a person typed (keyboard, or a script's `insertText`). */
const TYPED = new Set(['insertText']);
const TEXT_TYPES = new Set(['text', 'email', 'password', 'tel', 'search', 'url', 'number', '']);
/** At most this many fields are looked at per snapshot (a page without a submitted form). */
const MAX_FIELDS = 200;

interface FieldEvents {
  keys: number;
  pastes: number;
  /** Trusted `insertText` input events (typed text, or a DevTools `Input.insertText`). */
  typed: number;
  /** Other trusted input events (autofill, autocorrect, drop, undo, IME text). */
  inputs: number;
  compositions: number;
  /** Input events a script dispatched (password-manager extensions fill this way). */
  untrusted: number;
}

type TextField = HTMLInputElement | HTMLTextAreaElement;

function textField(target: EventTarget | null | undefined): TextField | null {
  if (target instanceof HTMLTextAreaElement) return target;
  if (target instanceof HTMLInputElement && TEXT_TYPES.has(target.getAttribute('type')?.toLowerCase() ?? ''))
    return target;
  return null;
}

/** The event's innermost target (inside open shadow roots too). */
function origin(e: Event): EventTarget | null {
  const path = typeof e.composedPath === 'function' ? e.composedPath() : [];
  return path[0] ?? e.target;
}

function autofilled(el: TextField): boolean {
  for (const selector of [':autofill', ':-webkit-autofill']) {
    try {
      if (el.matches(selector)) return true;
    } catch {
      // Selector unknown to this engine.
    }
  }
  return false;
}

/**
 * Counts, per text field, the events that put text into it (never the text): a person's text
 * comes with key, paste or input-method (composition) events, the browser's autofill or an
 * extension's fill is marked as such, and a driver's `insertText` (Playwright `fill`) brings
 * trusted input events alone. Summarised for the submitted form, or the whole page before any
 * submit.
 */
export class FieldTracker {
  private readonly events = new WeakMap<TextField, FieldEvents>();
  private form: HTMLFormElement | undefined;

  private of(e: Event): FieldEvents | null {
    const field = textField(origin(e));
    if (!field) return null;
    let v = this.events.get(field);
    if (!v) {
      v = { keys: 0, pastes: 0, typed: 0, inputs: 0, compositions: 0, untrusted: 0 };
      this.events.set(field, v);
    }
    return v;
  }

  key(e: KeyboardEvent): void {
    const v = this.of(e);
    if (v) v.keys++;
  }

  paste(e: Event): void {
    const v = this.of(e);
    if (v) v.pastes++;
  }

  composition(e: Event): void {
    const v = this.of(e);
    if (v) v.compositions++;
  }

  input(e: Event): void {
    const v = this.of(e);
    if (!v) return;
    if (!e.isTrusted) v.untrusted++;
    else if (TYPED.has((e as InputEvent).inputType)) v.typed++;
    else v.inputs++;
  }

  submitted(e: Event): void {
    if (e.target instanceof HTMLFormElement) this.form = e.target;
  }

  summary(): FormInput {
    const out = { fields: 0, untyped: 0, autofilled: 0, keys: 0, pastes: 0, inputs: 0, compositions: 0 };
    const candidates = this.form
      ? Array.from(this.form.elements)
      : Array.from(document.querySelectorAll('input, textarea')).slice(0, MAX_FIELDS);
    for (const el of candidates) {
      const field = textField(el);
      if (!field || field.value === '' || field.value === field.defaultValue) continue;
      out.fields++;
      const v = this.events.get(field);
      if (v) {
        out.keys += v.keys;
        out.pastes += v.pastes;
        out.inputs += v.typed + v.inputs;
        out.compositions += v.compositions;
      }
      if (autofilled(field) || (v && v.untrusted > 0)) out.autofilled++;
      else if (v && v.typed > 0 && v.keys === 0 && v.pastes === 0 && v.compositions === 0) out.untyped++;
    }
    return out;
  }
}

/**
 * Whether a pointer-down landed within 0.5 px of the centre of its element or of one of its three
 * nearest ancestors (a driver's `click()` aims at the centre of the element's box; a hand almost
 * never hits it to the half pixel).
 */
export function centredOnTarget(e: PointerEvent): boolean {
  let el = origin(e) as Element | null;
  for (let depth = 0; depth < 4 && el instanceof Element; depth++) {
    const r = el.getBoundingClientRect();
    if (
      r.width > 0 &&
      r.height > 0 &&
      Math.abs(e.clientX - (r.left + r.width / 2)) <= 0.5 &&
      Math.abs(e.clientY - (r.top + r.height / 2)) <= 0.5
    )
      return true;
    el = el.parentElement;
  }
  return false;
}
