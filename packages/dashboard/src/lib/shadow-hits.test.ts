import { describe, expect, it } from 'vitest';
import { shadowHitsOf } from './shadow-hits.ts';

describe('shadow hits of a decision', () => {
  it('reads the recorded shadow matches', () => {
    expect(
      shadowHitsOf({
        custom_rules: { matched: ['a'], shadow: [{ rule: 'try_me', score: 15, action: 'block' }] },
      }),
    ).toEqual([{ rule: 'try_me', score: 15, action: 'block' }]);
  });
  it('is empty without custom rules or with an unexpected shape', () => {
    expect(shadowHitsOf({})).toEqual([]);
    expect(shadowHitsOf({ custom_rules: { shadow: 'x' } })).toEqual([]);
    expect(shadowHitsOf({ custom_rules: { shadow: [{ score: 1 }] } })).toEqual([]);
  });
});
