import { describe, expect, it } from 'vitest';
import { changes, describeChange } from './audit.ts';

describe('audit changes', () => {
  it('lists changed fields with before → after', () => {
    expect(
      changes({ score: 30, name: 'a', updatedAt: 'x' }, { score: 50, name: 'a', updatedAt: 'y' }),
    ).toEqual(['score: 30 → 50']);
  });

  it('lists what a create made and a delete removed', () => {
    expect(changes(null, { name: 'ring', score: 30 })).toEqual(['name: ring', 'score: 30']);
    expect(changes({ role: 'viewer' }, null)).toEqual(['role: viewer']);
  });

  it('shows list entries added and removed as they are', () => {
    expect(changes({ size: 1 }, { size: 1, added: ['b'], removed: ['a'] })).toEqual([
      'added: ["b"]',
      'removed: ["a"]',
    ]);
  });

  it('never shows `undefined` for a field one side lacks, and long lists by their size', () => {
    expect(changes({ a: 1, gone: 'x' }, { a: 2, list: [1, 2, 3, 4] })).toEqual([
      'a: 1 → 2',
      'gone: x (removed)',
      'list: 4 items',
    ]);
  });
});

describe('readable label entries', () => {
  it('says how many decisions a bulk label labelled and what they were', () => {
    const lines = describeChange(
      'decision.label',
      {
        labels: [
          { id: 'a', label: null },
          { id: 'b', label: 'legit' },
          { id: 'c', label: null },
        ],
      },
      { label: 'fraud', count: 3, decisionIds: ['a', 'b', 'c'] },
    );
    expect(lines).toEqual(['3 decisions labelled fraud', 'before: 2 unlabelled, 1 legit']);
    expect(lines.join(' ')).not.toMatch(/undefined|\{/);
  });

  it('says which entity was labelled, relabelled or unlabelled', () => {
    expect(describeChange('entity.label', null, { kind: 'cluster', value: 'c1', label: 'fraud' })).toEqual([
      'cluster c1 labelled fraud as a whole',
    ]);
    expect(
      describeChange(
        'entity.label',
        { kind: 'account', value: 'al', label: 'legit' },
        { kind: 'account', value: 'al', label: 'fraud' },
      ),
    ).toEqual(['account al labelled fraud as a whole (was legit)']);
    expect(describeChange('entity.unlabel', { kind: 'device', value: 'd1', label: 'fraud' }, null)).toEqual([
      'device d1: label fraud removed',
    ]);
  });
});
