import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActivity, createIdleQueue } from './activity.ts';

// Time is the fake timers' clock throughout: the activity reads it through its `now` option
// and the idle queue's timers fire only when the test advances it, so nothing here sleeps.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const fakeNow = () => Date.now();

describe('activity', () => {
  it('counts requests in flight and says when the last one ended', () => {
    const a = createActivity({ now: fakeNow });
    let quiet = 0;
    a.onQuiet(() => quiet++);
    a.begin();
    a.begin();
    expect(a.inFlight).toBe(2);
    expect(a.quietForMs()).toBe(0);
    a.end();
    expect(quiet).toBe(0);
    expect(a.quietForMs()).toBe(0);
    a.end();
    expect(quiet).toBe(1);
    expect(a.inFlight).toBe(0);
    // An unmatched end (a socket closed twice) never makes the count negative.
    a.end();
    expect(a.inFlight).toBe(0);
    expect(quiet).toBe(1);
  });

  it('measures how long it has been quiet since the last request ended, on its clock', () => {
    let t = 1_000;
    const a = createActivity({ now: () => t });
    t += 500;
    expect(a.quietForMs()).toBe(500); // quiet since it was created
    a.begin();
    t += 100;
    expect(a.quietForMs()).toBe(0);
    a.end();
    t += 30;
    expect(a.quietForMs()).toBe(30);
  });

  it('reads the monotonic clock by default', () => {
    // performance.now() is faked too: the default clock follows the same fake time.
    const a = createActivity();
    vi.advanceTimersByTime(42);
    expect(a.quietForMs()).toBe(42);
  });
});

describe('idle queue', () => {
  it('waits while a request is in flight and runs quietMs after the last one ended', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 20, maxDelayMs: 10_000 });
    const ran: string[] = [];
    a.begin();
    q.defer(() => ran.push('first'));
    q.defer(() => ran.push('second'));
    vi.advanceTimersByTime(80);
    expect(ran).toEqual([]);
    expect(q.size).toBe(2);
    a.end();
    vi.advanceTimersByTime(19);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['first', 'second']);
    expect(q.size).toBe(0);
  });

  it('starts over when a request arrives before the quiet time is up', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 40, maxDelayMs: 10_000 });
    let ran = 0;
    q.defer(() => ran++);
    vi.advanceTimersByTime(15);
    a.begin();
    vi.advanceTimersByTime(60);
    expect(ran).toBe(0);
    a.end();
    vi.advanceTimersByTime(39);
    expect(ran).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ran).toBe(1);
  });

  it('runs work deferred into a quiet server quietMs later', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 40, maxDelayMs: 10_000 });
    vi.advanceTimersByTime(10);
    let ran = 0;
    q.defer(() => ran++);
    // Its timer checks 40 ms later; the server was quiet for 50 by then.
    vi.advanceTimersByTime(39);
    expect(ran).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ran).toBe(1);
  });

  it('runs everything once maxTasks are waiting, even under continuous traffic', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 20, maxTasks: 5, maxDelayMs: 10_000 });
    const ran: number[] = [];
    a.begin();
    for (let i = 0; i < 4; i++) q.defer(() => ran.push(i));
    vi.advanceTimersByTime(30);
    expect(ran).toEqual([]);
    q.defer(() => ran.push(4));
    expect(ran).toEqual([]); // not inside the caller's callback
    vi.advanceTimersByTime(0); // the next turn of the event loop (setImmediate)
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    a.end();
  });

  it('runs what waited maxDelayMs under continuous traffic', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 20, maxDelayMs: 60 });
    let ran = 0;
    a.begin();
    q.defer(() => ran++);
    vi.advanceTimersByTime(59);
    expect(ran).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ran).toBe(1);
    a.end();
  });

  it('flush runs everything now; a failing task does not stop the others', () => {
    const a = createActivity({ now: fakeNow });
    const errors: unknown[] = [];
    const q = createIdleQueue({ activity: a, onError: (e) => errors.push(e) });
    const ran: number[] = [];
    a.begin();
    q.defer(() => ran.push(1));
    q.defer(() => {
      throw new Error('boom');
    });
    q.defer(() => ran.push(3));
    q.flush();
    expect(ran).toEqual([1, 3]);
    expect((errors[0] as Error).message).toBe('boom');
    expect(q.size).toBe(0);
    a.end();
  });
});
