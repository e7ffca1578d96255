/**
 * The review queue's keyboard (pure, so it is tested without a DOM): what a key does, and where
 * the cursor goes after it.
 *
 * j or ↓ next, k or ↑ previous, f label fraud, l label legit, x select or unselect, o or Enter open.
 * A label key labels the selected decisions when some are selected, otherwise the current one.
 */
export type QueueCommand =
  | { type: 'move'; by: 1 | -1 }
  | { type: 'label'; label: 'fraud' | 'legit' }
  | { type: 'toggle' }
  | { type: 'open' };

export const QUEUE_ACTIONS = 'review,challenge';

export function queueCommand(key: string, modifiers: { ctrl?: boolean; meta?: boolean; alt?: boolean } = {}) {
  if (modifiers.ctrl || modifiers.meta || modifiers.alt) return null;
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return { type: 'move', by: 1 } as QueueCommand;
    case 'k':
    case 'ArrowUp':
      return { type: 'move', by: -1 } as QueueCommand;
    case 'f':
      return { type: 'label', label: 'fraud' } as QueueCommand;
    case 'l':
      return { type: 'label', label: 'legit' } as QueueCommand;
    case 'x':
      return { type: 'toggle' } as QueueCommand;
    case 'o':
    case 'Enter':
      return { type: 'open' } as QueueCommand;
    default:
      return null;
  }
}

/** The cursor moved by `by`, kept inside a list of `length` items (−1 when empty). */
export function moveCursor(cursor: number, by: number, length: number): number {
  if (length === 0) return -1;
  return Math.min(length - 1, Math.max(0, cursor + by));
}

/** A key pressed in a field types into it: the queue ignores it (a checkbox is not a field). */
export function typedIntoField(
  target: { tagName?: string; type?: string; isContentEditable?: boolean } | null,
): boolean {
  if (!target) return false;
  const tag = (target.tagName ?? '').toUpperCase();
  if (tag === 'INPUT') return target.type !== 'checkbox' && target.type !== 'radio';
  return tag === 'SELECT' || tag === 'TEXTAREA' || target.isContentEditable === true;
}

/** The decisions a label key applies to: the selected ones, or else the one under the cursor. */
export function labelTargets(selected: ReadonlySet<string>, current: string | undefined): string[] {
  if (selected.size > 0) return [...selected];
  return current ? [current] : [];
}
