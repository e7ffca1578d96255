import { describe, expect, it } from 'vitest';
import { classify, defaultAction, enforceBotFloor, riskLevel, riskScore } from './decide.ts';
import type { EventType, RiskLevel } from './engine-types.ts';

describe('score, level, classification, action', () => {
  it('sums, rounds and clamps', () => {
    expect(riskScore([])).toBe(0);
    expect(
      riskScore([
        { rule: 'a', score: 10.4, description: '' },
        { rule: 'b', score: 20.2, description: '' },
      ]),
    ).toBe(31);
    expect(riskScore([{ rule: 'a', score: -30, description: '' }])).toBe(0);
    expect(
      riskScore([
        { rule: 'a', score: 90, description: '' },
        { rule: 'b', score: 40, description: '' },
      ]),
    ).toBe(100);
  });

  it('maps levels at 30, 60 and 85', () => {
    expect([0, 29, 30, 59, 60, 84, 85, 100].map(riskLevel)).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
      'critical',
    ]);
  });

  it('classifies human / suspicious / bot', () => {
    expect(classify('low', false)).toBe('human');
    expect(classify('medium', false)).toBe('suspicious');
    expect(classify('high', false)).toBe('suspicious');
    expect(classify('critical', false)).toBe('bot');
    expect(classify('low', true)).toBe('bot');
  });

  it('maps actions by level; page_view never review; bot never allow', () => {
    const events: EventType[] = ['signup', 'login', 'promo_claim', 'checkout', 'page_view'];
    const levels: RiskLevel[] = ['low', 'medium', 'high', 'critical'];
    for (const e of events) {
      for (const l of levels) {
        const human = defaultAction(l, classify(l, false), e);
        const bot = defaultAction(l, 'bot', e);
        if (e === 'page_view') expect(human).not.toBe('review');
        expect(['challenge', 'block']).toContain(bot);
      }
    }
    expect(defaultAction('low', 'human', 'login')).toBe('allow');
    expect(defaultAction('medium', 'suspicious', 'login')).toBe('review');
    expect(defaultAction('medium', 'suspicious', 'page_view')).toBe('allow');
    expect(defaultAction('high', 'suspicious', 'checkout')).toBe('challenge');
    expect(defaultAction('critical', 'bot', 'signup')).toBe('block');
    expect(enforceBotFloor('review', 'bot')).toBe('challenge');
    expect(enforceBotFloor('allow', 'human')).toBe('allow');
  });
});
