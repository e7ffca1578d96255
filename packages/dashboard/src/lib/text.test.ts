import { describe, expect, it } from 'vitest';
import { lineColumn, offsetOf } from './text.ts';

describe('text positions', () => {
  const text = 'a == 1\n  && b';
  it('turns offsets into 1-based line and column and back', () => {
    expect(lineColumn(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn(text, 6)).toEqual({ line: 1, column: 7 });
    expect(lineColumn(text, 7)).toEqual({ line: 2, column: 1 });
    expect(lineColumn(text, 12)).toEqual({ line: 2, column: 6 });
    expect(offsetOf(text, 2, 6)).toBe(12);
    expect(offsetOf(text, 1, 1)).toBe(0);
    expect(offsetOf(text, 9, 99)).toBe(text.length);
  });
});
