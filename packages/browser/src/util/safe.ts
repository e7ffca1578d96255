/** Runs `fn`, returning undefined when it throws: every collector fails soft. */
export function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** Resolves to the promise's value, or undefined after `ms` or on rejection. */
export function timeBox<T>(promise: Promise<T> | (() => Promise<T>), ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    let p: Promise<T>;
    try {
      p = typeof promise === 'function' ? promise() : promise;
    } catch {
      clearTimeout(timer);
      resolve(undefined);
      return;
    }
    p.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

/** Copies defined values only (exactOptionalPropertyTypes-friendly object building). */
export function defined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}
