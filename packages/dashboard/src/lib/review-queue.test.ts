import { describe, expect, it } from 'vitest';
import { labelTargets, moveCursor, queueCommand, typedIntoField } from './review-queue.ts';

describe('review queue keys', () => {
  it('maps j/k and the arrows to moves, f/l to labels, x to select, o/Enter to open', () => {
    expect(queueCommand('j')).toEqual({ type: 'move', by: 1 });
    expect(queueCommand('ArrowDown')).toEqual({ type: 'move', by: 1 });
    expect(queueCommand('k')).toEqual({ type: 'move', by: -1 });
    expect(queueCommand('ArrowUp')).toEqual({ type: 'move', by: -1 });
    expect(queueCommand('f')).toEqual({ type: 'label', label: 'fraud' });
    expect(queueCommand('l')).toEqual({ type: 'label', label: 'legit' });
    expect(queueCommand('x')).toEqual({ type: 'toggle' });
    expect(queueCommand('Enter')).toEqual({ type: 'open' });
    expect(queueCommand('q')).toBeNull();
    expect(queueCommand('f', { ctrl: true })).toBeNull();
    expect(queueCommand('l', { meta: true })).toBeNull();
  });

  it('keeps the cursor inside the list', () => {
    expect(moveCursor(0, -1, 3)).toBe(0);
    expect(moveCursor(2, 1, 3)).toBe(2);
    expect(moveCursor(1, 1, 3)).toBe(2);
    expect(moveCursor(0, 1, 0)).toBe(-1);
  });

  it('ignores keys typed into fields', () => {
    expect(typedIntoField({ tagName: 'input' })).toBe(true);
    expect(typedIntoField({ tagName: 'INPUT', type: 'search' })).toBe(true);
    expect(typedIntoField({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(typedIntoField({ tagName: 'SELECT' })).toBe(true);
    expect(typedIntoField({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(typedIntoField({ tagName: 'TR' })).toBe(false);
    expect(typedIntoField(null)).toBe(false);
  });

  it('labels the selection when there is one, else the current decision', () => {
    expect(labelTargets(new Set(['a', 'b']), 'c')).toEqual(['a', 'b']);
    expect(labelTargets(new Set(), 'c')).toEqual(['c']);
    expect(labelTargets(new Set(), undefined)).toEqual([]);
  });
});
