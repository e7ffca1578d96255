import { describe, expect, it } from 'vitest';
import { change } from './compare.ts';

describe('change against the previous period', () => {
  it('says how much and which way', () => {
    expect(change(15, 10)).toEqual({ text: '+5 (+50%)', direction: 'up' });
    expect(change(5, 10)).toEqual({ text: '−5 (−50%)', direction: 'down' });
    expect(change(3, 0)).toEqual({ text: '+3 (new)', direction: 'up' });
    expect(change(7, 7)).toEqual({ text: '±0', direction: 'same' });
  });
});
