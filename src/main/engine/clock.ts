/** Time source; injected so consolidation and debounce can be tested on a fixed clock. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(
  start: number,
): Clock & { set(ms: number): void; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
