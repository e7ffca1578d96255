import { describe, expect, it } from 'vitest';
import { type LivePage, mergeNewest, pollNewest } from './live.ts';

interface D {
  id: string;
  createdAt: string;
}

/** Decisions d1…dN, dN the newest (one second apart). */
function decisions(n: number): D[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `d${i + 1}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
}

/** A fake `GET /api/decisions`: newest first, `size` per page, cursor = offset. */
function api(all: D[], size: number) {
  const newestFirst = [...all].reverse();
  const calls: Array<string | null> = [];
  const fetchPage = async (cursor: string | null): Promise<LivePage<D>> => {
    calls.push(cursor);
    const start = cursor ? Number(cursor) : 0;
    const items = newestFirst.slice(start, start + size);
    return { items, nextCursor: start + size < newestFirst.length ? String(start + size) : null };
  };
  return { fetchPage, calls };
}

describe('live decisions list', () => {
  it('takes one page when fewer than a page arrived', async () => {
    const all = decisions(10);
    const { fetchPage, calls } = api(all, 5);
    const known = new Set(['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7']);
    const result = await pollNewest(fetchPage, known, 4);
    expect(result).toEqual({ kind: 'new', added: [all[9], all[8], all[7]] });
    expect(calls).toEqual([null]);
  });

  it('follows the cursor until it reaches a decision it already has, so none is skipped', async () => {
    const all = decisions(20);
    const { fetchPage, calls } = api(all, 5);
    // The list shows d1…d3; 17 arrived since: four pages of five.
    const current = [all[2]!, all[1]!, all[0]!];
    const result = await pollNewest(fetchPage, new Set(current.map((d) => d.id)), 5);
    expect(calls).toEqual([null, '5', '10', '15']);
    expect(result.kind).toBe('new');
    if (result.kind !== 'new') return;
    expect(result.added.map((d) => d.id)).toEqual(Array.from({ length: 17 }, (_, i) => `d${20 - i}`));
    const merged = mergeNewest(current, result.added);
    expect(merged.map((d) => d.id)).toEqual(Array.from({ length: 20 }, (_, i) => `d${20 - i}`));
  });

  it('stops at the end of the list when nothing was known (an empty list)', async () => {
    const all = decisions(7);
    const { fetchPage, calls } = api(all, 5);
    const result = await pollNewest(fetchPage, new Set(), 5);
    expect(calls).toEqual([null, '5']);
    expect(result).toEqual({ kind: 'new', added: [...all].reverse() });
  });

  it('gives up after maxPages and reports at least how many are new', async () => {
    const all = decisions(100);
    const { fetchPage, calls } = api(all, 10);
    const result = await pollNewest(fetchPage, new Set(['d1']), 3);
    expect(result).toEqual({ kind: 'overflow', atLeast: 30 });
    expect(calls).toEqual([null, '10', '20']);
  });

  it('reports nothing new when the newest is already shown', async () => {
    const all = decisions(3);
    const { fetchPage } = api(all, 50);
    expect(await pollNewest(fetchPage, new Set(['d3', 'd2', 'd1']), 5)).toEqual({ kind: 'new', added: [] });
  });

  it('merges without duplicates and keeps newest first', () => {
    const t = '2026-01-01T00:00:00.000Z';
    const later = '2026-01-01T00:00:01.000Z';
    const current = [
      { id: 'b', createdAt: t },
      { id: 'a', createdAt: '2025-12-31T23:59:59.000Z' },
    ];
    // `c` was made in the same millisecond as `b`: a tie keeps the new one above.
    const added = [
      { id: 'n', createdAt: later },
      { id: 'c', createdAt: t },
    ];
    expect(mergeNewest(current, added).map((d) => d.id)).toEqual(['n', 'c', 'b', 'a']);
    expect(mergeNewest(current, [{ id: 'b', createdAt: t }]).map((d) => d.id)).toEqual(['b', 'a']);
    expect(mergeNewest(current, [])).toEqual(current);
  });
});
