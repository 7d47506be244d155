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
  // A slice starts on the event loop's next turn (setImmediate): the fake clock's next timer.
  const nextTurn = () => vi.advanceTimersToNextTimer();

  it('waits while a request is in flight and runs as soon as the last one ended', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, maxDelayMs: 10_000 });
    const ran: string[] = [];
    a.begin();
    q.defer(() => ran.push('first'));
    q.defer(() => ran.push('second'));
    vi.advanceTimersByTime(80);
    expect(ran).toEqual([]);
    expect(q.size).toBe(2);
    a.end();
    expect(ran).toEqual([]); // not inside the callback that ended the request
    nextTurn();
    expect(ran).toEqual(['first', 'second']);
    expect(q.size).toBe(0);
  });

  it('with quietMs, waits that long after the last request ended', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 20, maxDelayMs: 10_000 });
    let ran = 0;
    a.begin();
    q.defer(() => ran++);
    a.end();
    vi.advanceTimersByTime(19);
    expect(ran).toBe(0);
    vi.advanceTimersByTime(1);
    nextTurn();
    expect(ran).toBe(1);
  });

  it('starts over when a request arrives before the quiet time is up', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, quietMs: 40, maxDelayMs: 10_000 });
    a.begin();
    a.end();
    let ran = 0;
    q.defer(() => ran++);
    vi.advanceTimersByTime(15);
    a.begin();
    vi.advanceTimersByTime(60);
    expect(ran).toBe(0);
    a.end();
    vi.advanceTimersByTime(39);
    nextTurn();
    expect(ran).toBe(0);
    vi.advanceTimersByTime(1);
    nextTurn();
    expect(ran).toBe(1);
  });

  it('runs work deferred into a quiet server on the next turn of the event loop', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a });
    let ran = 0;
    q.defer(() => ran++);
    expect(ran).toBe(0);
    nextTurn();
    expect(ran).toBe(1);
  });

  it('runs in slices of sliceMs; a request that arrives between two waits for one slice at most', () => {
    // Each task takes 1 ms on the queue's clock.
    let t = 0;
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, sliceMs: 2, maxDelayMs: 10_000, now: () => t });
    const ran: number[] = [];
    a.begin();
    for (let i = 0; i < 7; i++) q.defer(() => void (ran.push(i), (t += 1)));
    a.end();
    nextTurn();
    expect(ran).toEqual([0, 1]);
    a.begin(); // a request arrives between two slices: the rest waits until it is answered
    nextTurn();
    vi.advanceTimersByTime(50);
    expect(ran).toEqual([0, 1]);
    a.end();
    nextTurn();
    expect(ran).toEqual([0, 1, 2, 3]);
    nextTurn();
    nextTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(q.size).toBe(0);
  });

  it('a task longer than a slice still runs, one per slice', () => {
    let t = 0;
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, sliceMs: 2, now: () => t });
    const ran: number[] = [];
    for (let i = 0; i < 3; i++) q.defer(() => void (ran.push(i), (t += 5)));
    nextTurn();
    expect(ran).toEqual([0]);
    nextTurn();
    nextTurn();
    expect(ran).toEqual([0, 1, 2]);
  });

  it('runs once maxTasks are waiting, even under continuous traffic', () => {
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({ activity: a, maxTasks: 5, maxDelayMs: 10_000 });
    const ran: number[] = [];
    a.begin();
    for (let i = 0; i < 4; i++) q.defer(() => ran.push(i));
    vi.advanceTimersByTime(30);
    expect(ran).toEqual([]);
    q.defer(() => ran.push(4));
    expect(ran).toEqual([]); // not inside the caller's callback
    nextTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    a.end();
  });

  it('runs what waited maxDelayMs under continuous traffic, in slices until it is done', () => {
    let t = 0;
    const a = createActivity({ now: fakeNow });
    const q = createIdleQueue({
      activity: a,
      maxDelayMs: 60,
      sliceMs: 1,
      busySliceMs: 2,
      now: () => t,
    });
    const ran: number[] = [];
    a.begin();
    for (let i = 0; i < 4; i++) q.defer(() => void (ran.push(i), (t += 1)));
    vi.advanceTimersByTime(59);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    nextTurn();
    expect(ran).toEqual([0, 1]);
    nextTurn(); // still busy, but overdue: the next slice follows
    expect(ran).toEqual([0, 1, 2, 3]);
    // Emptied: new work waits for a quiet moment again.
    q.defer(() => ran.push(9));
    vi.advanceTimersByTime(30);
    expect(ran).toHaveLength(4);
    a.end();
    nextTurn();
    expect(ran).toHaveLength(5);
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
