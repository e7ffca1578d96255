/**
 * The live decisions list without gaps. Every poll asks for the newest page of decisions; when
 * more arrived since the last poll than one page holds, it follows `nextCursor` until it reaches
 * a decision the list already has, so none is skipped. After `maxPages` pages without reaching
 * one it gives up and reports an overflow: the list then offers a reload instead of showing a
 * list with a hole in it.
 */

export interface LivePage<T> {
  items: T[];
  nextCursor: string | null;
}

export type LivePoll<T> =
  /** Every decision newer than the list's newest: merge them on top. */
  | { kind: 'new'; added: T[] }
  /** More than `maxPages` pages arrived; `atLeast` of them were seen. */
  | { kind: 'overflow'; atLeast: number };

/**
 * Pages newest first through `fetchPage(cursor)` (first call with `null`) until a page holds an
 * id in `known`, or the API has no further page. `known` empty (an empty list) means "everything
 * up to the end is new".
 */
export async function pollNewest<T extends { id: string }>(
  fetchPage: (cursor: string | null) => Promise<LivePage<T>>,
  known: ReadonlySet<string>,
  maxPages: number,
): Promise<LivePoll<T>> {
  const added: T[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const page: LivePage<T> = await fetchPage(cursor);
    let reachedKnown = false;
    for (const item of page.items) {
      if (known.has(item.id)) reachedKnown = true;
      else if (!seen.has(item.id)) {
        seen.add(item.id);
        added.push(item);
      }
    }
    if (reachedKnown || !page.nextCursor) return { kind: 'new', added };
    cursor = page.nextCursor;
  }
  return { kind: 'overflow', atLeast: added.length };
}

/**
 * `added` (newest first) on top of `current`, without duplicates, still newest first: a decision
 * made in the same millisecond as the list's newest may sort below it, and is put there.
 */
export function mergeNewest<T extends { id: string; createdAt: string }>(
  current: readonly T[],
  added: readonly T[],
): T[] {
  const ids = new Set(added.map((d) => d.id));
  const merged = [...added, ...current.filter((d) => !ids.has(d.id))];
  // Stable: equal times keep the API's order. ISO times in one format compare as strings.
  return merged.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
