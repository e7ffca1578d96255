import { describe, expect, it } from 'vitest';
import { retentionNote } from './DecisionDetail.tsx';

describe('the decision page says what is kept how long', () => {
  const now = Date.parse('2026-03-01T00:00:00Z');
  it('names the days evidence and decision are kept until, or that evidence is gone', () => {
    expect(
      retentionNote(
        { evidenceUntil: '2026-03-31T10:00:00.000Z', keptUntil: '2027-03-01T10:00:00.000Z' },
        now,
      ),
    ).toBe('Evidence is kept until 2026-03-31; the decision, its features and label until 2027-03-01.');
    expect(
      retentionNote(
        { evidenceUntil: '2026-02-01T10:00:00.000Z', keptUntil: '2027-01-01T10:00:00.000Z' },
        now,
      ),
    ).toBe(
      'Evidence was dropped on 2026-02-01 (evidence retention); the decision, its features and label until 2027-01-01.',
    );
    expect(retentionNote({ evidenceUntil: null, keptUntil: null }, now)).toBe(
      'Evidence is kept for ever; the decision, its features and label for ever.',
    );
  });
});
