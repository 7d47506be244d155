import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDatabase } from '../../../test/helpers/temp-db.ts';
import { releaseMemory, releaseWhenIdle } from './memory-release.ts';

describe('releaseWhenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const fakeNow = () => Date.now();

  it('releases once, quietMs after the last touch of a spell of work', () => {
    vi.useFakeTimers();
    const release = vi.fn();
    const idle = releaseWhenIdle(release, { quietMs: 1000, now: fakeNow });
    idle.touch();
    vi.advanceTimersByTime(600);
    idle.touch(); // the spell goes on: the quiet time counts from here
    vi.advanceTimersByTime(600);
    expect(release).not.toHaveBeenCalled();
    vi.advanceTimersByTime(400);
    expect(release).toHaveBeenCalledTimes(1);
    // Nothing more happened: no second release, however long it stays quiet.
    vi.advanceTimersByTime(10_000);
    expect(release).toHaveBeenCalledTimes(1);
    // A new spell of work releases again after it.
    idle.touch();
    vi.advanceTimersByTime(1000);
    expect(release).toHaveBeenCalledTimes(2);
  });

  it('waits while something is in flight, and stop() cancels', () => {
    vi.useFakeTimers();
    const release = vi.fn();
    let inFlight = 1;
    const idle = releaseWhenIdle(release, {
      quietMs: 1000,
      now: fakeNow,
      busy: () => inFlight > 0,
    });
    idle.touch();
    vi.advanceTimersByTime(3000);
    expect(release).not.toHaveBeenCalled();
    inFlight = 0;
    vi.advanceTimersByTime(1000);
    expect(release).toHaveBeenCalledTimes(1);
    idle.touch();
    idle.stop();
    vi.advanceTimersByTime(5000);
    expect(release).toHaveBeenCalledTimes(1);
  });
});

describe('releaseMemory', () => {
  it('collects the heap’s garbage without leaving a global gc behind', async () => {
    const ref = ((): WeakRef<object> => new WeakRef({ rows: new Array(10_000).fill('x') }))();
    // A WeakRef's target lives at least until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    releaseMemory([]);
    expect(ref.deref()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('shrinks open connections and skips closed ones, which stay usable or closed as they were', () => {
    const a = tempDatabase();
    const b = tempDatabase();
    try {
      a.db.exec(`CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('kept')`);
      b.db.close();
      expect(() => releaseMemory([a.db, b.db])).not.toThrow();
      expect(a.db.prepare('SELECT x FROM t').get()).toEqual({ x: 'kept' });
      expect(b.db.open).toBe(false);
    } finally {
      a.cleanup();
      b.cleanup();
    }
  });
});
