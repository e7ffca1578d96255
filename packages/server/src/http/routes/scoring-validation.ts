import type { ErrorDetail } from '../../errors.ts';
import { validationFailed } from '../validation.ts';

/** Interface §8: at most 2,048 behaviour samples, counted over every array inside `behavior` at any depth. */
export const MAX_BEHAVIOR_SAMPLES = 2048;
/** Interface §8: single scoring bodies and per-event engine input. */
export const SINGLE_EVENT_LIMIT = 256 * 1024;
/** Interface §8: batch bodies. */
export const BATCH_BODY_LIMIT = 5 * 1024 * 1024;

/** Number of array elements inside `value`, at any depth; stops counting past `limit`. */
export function countArrayElements(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      const n = current.length;
      total += n;
      if (total > limit) return total;
      // Indexed, not for…of: the array iterator costs more than the check of each element
      // (behaviour samples are arrays of numbers: nothing to push).
      for (let i = 0; i < n; i++) {
        const item: unknown = current[i];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else {
      for (const key in current) {
        const item = (current as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
  return total;
}

/** The behaviour-sample limit; `prefix` is where `behavior` sits (`body`, `body.events.3`). */
export function behaviorLimitDetails(behavior: unknown, prefix: string): ErrorDetail[] {
  if (behavior === undefined) return [];
  const count = countArrayElements(behavior, MAX_BEHAVIOR_SAMPLES);
  if (count <= MAX_BEHAVIOR_SAMPLES) return [];
  return [
    {
      path: `${prefix}.behavior`,
      message: `holds more than ${MAX_BEHAVIOR_SAMPLES} samples in total (every array element at any depth counts)`,
    },
  ];
}

/** preHandler for bodies carrying `behavior`: the sample limit is a validation failure (SPEC §8). */
export async function checkBehaviorLimit(request: { body: unknown }): Promise<void> {
  const body = request.body as { behavior?: unknown } | null;
  const details = behaviorLimitDetails(body?.behavior, 'body');
  if (details.length > 0) throw validationFailed(details);
}
