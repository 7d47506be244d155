import { describe, expect, it } from 'vitest';
import { createActivity, createIdleQueue } from './activity.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('activity', () => {
  it('counts requests in flight and says when the last one ended', () => {
    const a = createActivity();
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

  it('measures how long it has been quiet', async () => {
    const a = createActivity();
    a.begin();
    a.end();
    await sleep(30);
    expect(a.quietForMs()).toBeGreaterThanOrEqual(25);
  });
});

describe('idle queue', () => {
  it('waits while a request is in flight and runs quietMs after the last one ended', async () => {
    const a = createActivity();
    const q = createIdleQueue({ activity: a, quietMs: 20, maxDelayMs: 10_000 });
    const ran: string[] = [];
    a.begin();
    q.defer(() => ran.push('first'));
    q.defer(() => ran.push('second'));
    await sleep(80);
    expect(ran).toEqual([]);
    expect(q.size).toBe(2);
    a.end();
    const ended = performance.now();
    await sleep(5);
    expect(ran).toEqual([]);
    for (let i = 0; i < 100 && ran.length === 0; i++) await sleep(5);
    expect(ran).toEqual(['first', 'second']);
    expect(performance.now() - ended).toBeGreaterThanOrEqual(19);
    expect(q.size).toBe(0);
  });

  it('starts over when a request arrives before the quiet time is up', async () => {
    const a = createActivity();
    const q = createIdleQueue({ activity: a, quietMs: 40, maxDelayMs: 10_000 });
    let ran = 0;
    q.defer(() => ran++);
    await sleep(15);
    a.begin();
    await sleep(60);
    expect(ran).toBe(0);
    a.end();
    for (let i = 0; i < 100 && ran === 0; i++) await sleep(5);
    expect(ran).toBe(1);
  });

  it('runs everything once maxTasks are waiting, even under continuous traffic', async () => {
    const a = createActivity();
    const q = createIdleQueue({ activity: a, quietMs: 20, maxTasks: 5, maxDelayMs: 10_000 });
    const ran: number[] = [];
    a.begin();
    for (let i = 0; i < 4; i++) q.defer(() => ran.push(i));
    await sleep(30);
    expect(ran).toEqual([]);
    q.defer(() => ran.push(4));
    expect(ran).toEqual([]); // not inside the caller's callback
    await sleep(5);
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    a.end();
  });

  it('runs what waited maxDelayMs under continuous traffic', async () => {
    const a = createActivity();
    const q = createIdleQueue({ activity: a, quietMs: 20, maxDelayMs: 60 });
    let ran = 0;
    a.begin();
    q.defer(() => ran++);
    await sleep(30);
    expect(ran).toBe(0);
    for (let i = 0; i < 100 && ran === 0; i++) await sleep(5);
    expect(ran).toBe(1);
    a.end();
  });

  it('flush runs everything now; a failing task does not stop the others', () => {
    const a = createActivity();
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
