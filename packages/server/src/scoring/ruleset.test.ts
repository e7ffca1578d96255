import { describe, expect, it } from 'vitest';
import { METRIC_THRESHOLDS } from './behavior-metrics.ts';
import { DEFAULT_FAMILIES, rulesetVersion } from './ruleset.ts';
import { BEHAVIOR } from './signals/behavior-tells.ts';

describe('ruleset_version', () => {
  it('is stable for the same rules and custom text', () => {
    expect(rulesetVersion(DEFAULT_FAMILIES)).toMatch(/^rs_[0-9a-f]{12}$/);
    expect(rulesetVersion(DEFAULT_FAMILIES, 'x')).toBe(rulesetVersion(DEFAULT_FAMILIES, 'x'));
    expect(rulesetVersion(DEFAULT_FAMILIES, 'x')).not.toBe(rulesetVersion(DEFAULT_FAMILIES, 'y'));
  });

  it('changes with any tuning: a rule score, a signal threshold, a behaviour-metric threshold', () => {
    const before = rulesetVersion(DEFAULT_FAMILIES);
    const tweak = (apply: () => () => void) => {
      const undo = apply();
      try {
        return rulesetVersion(DEFAULT_FAMILIES);
      } finally {
        undo();
      }
    };
    const family = DEFAULT_FAMILIES[0]!;
    const [rule, info] = Object.entries(family.rules)[0]!;
    expect(
      tweak(() => {
        const score = info.score;
        info.score = score + 1;
        return () => {
          info.score = score;
        };
      }),
    ).not.toBe(before);
    for (const [object, key] of [
      [BEHAVIOR, Object.keys(BEHAVIOR)[0]!],
      [METRIC_THRESHOLDS, 'SMOOTH_TURN_CHANGE'],
    ] as const) {
      const target = object as Record<string, unknown>;
      expect(
        tweak(() => {
          const value = target[key];
          target[key] = 12345;
          return () => {
            target[key] = value;
          };
        }),
        `${rule}/${key}`,
      ).not.toBe(before);
    }
    expect(rulesetVersion(DEFAULT_FAMILIES)).toBe(before);
  });
});
