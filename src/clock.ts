/** Milliseconds since the epoch; injected so tests can move time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** What arrivedWithin gives for a promise that has not settled in time. */
export const LATE = Symbol('late');

/** The promise's value, or LATE when it has not settled within `ms` (it goes on; its outcome is then not waited for). */
export function arrivedWithin<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  return Promise.race([promise, late]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}
