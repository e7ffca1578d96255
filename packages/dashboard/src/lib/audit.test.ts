import { describe, expect, it } from 'vitest';
import { changes } from './audit.ts';

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
});
