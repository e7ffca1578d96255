import { describe, expect, it } from 'vitest';
import { decisionsHref } from './decision-filters.ts';
import { fromLocalInput } from './format.ts';

describe('links to the filtered decisions list', () => {
  it('writes the filters into the address, leaving out empty ones', () => {
    expect(decisionsHref({ signal: 'custom:fast', emailDomain: '' })).toBe(
      '/dashboard/decisions?signal=custom%3Afast',
    );
  });

  it('keeps a period inside the whole-minute inputs: from rounded down, to rounded up', () => {
    const href = decisionsHref({
      country: 'DE',
      from: '2026-06-10T08:15:42.500Z',
      to: '2026-06-11T08:15:42.500Z',
    });
    const params = new URL(href, 'http://x').searchParams;
    expect(params.get('country')).toBe('DE');
    expect(fromLocalInput(params.get('from') ?? '')).toBe('2026-06-10T08:15:00.000Z');
    expect(fromLocalInput(params.get('to') ?? '')).toBe('2026-06-11T08:16:00.000Z');
  });
});
