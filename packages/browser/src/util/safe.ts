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

/** Resolves after `ms` (used to poll without blocking). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Yields to the event loop so that synchronous collectors run as separate short tasks (input
 * and rendering can go in between). A message round trip is not clamped like `setTimeout(0)`.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}

/** Collector timings (ms, wall) and the time the page was blocked; not part of the evidence. */
export interface Meter {
  timings: Record<string, number>;
  blocked: number;
}

/** Milliseconds to one decimal, as timings are reported. */
export const round1 = (ms: number) => Math.round(ms * 10) / 10;

export const newMeter = (): Meter => ({ timings: {}, blocked: 0 });

/** Runs a synchronous collector fail-soft, recording its time as blocked time. */
export function measured<T>(meter: Meter, name: string, fn: () => T): T | undefined {
  const started = performance.now();
  const value = safe(fn);
  const ms = performance.now() - started;
  meter.blocked += ms;
  meter.timings[name] = round1((meter.timings[name] ?? 0) + ms);
  return value;
}

/** Records the wall time of an asynchronous collector when it settles. */
export function timed<T>(meter: Meter, name: string, promise: Promise<T>): Promise<T> {
  const started = performance.now();
  const done = () => {
    meter.timings[name] = round1(performance.now() - started);
  };
  promise.then(done, done);
  return promise;
}
