import { describe, expect, it, vi } from 'vitest';
import { createActivity } from '../activity.ts';
import { createLogger, silentLogger } from '../logger.ts';
import { createBackgroundTasks } from './background.ts';

describe('background tasks', () => {
  it('drain starts what waits for a quiet moment and waits for it', async () => {
    const activity = createActivity();
    const bg = createBackgroundTasks(silentLogger, { activity, quietMs: 10_000 });
    activity.begin();
    const done: string[] = [];
    bg.runWhenQuiet('later', async () => {
      await new Promise((r) => setTimeout(r, 20));
      done.push('later');
    });
    bg.run('now', () => done.push('now'));
    expect(bg.size).toBe(2);
    await bg.drain(2000);
    expect(done.sort()).toEqual(['later', 'now']);
    expect(bg.size).toBe(0);
    activity.end();
  });

  it('tells onSettled of every task that settled, failed or not', async () => {
    let settled = 0;
    const bg = createBackgroundTasks(silentLogger, { quietMs: 1, onSettled: () => settled++ });
    bg.run('ok', () => 1);
    bg.runWhenQuiet('fails', () => {
      throw new Error('boom');
    });
    await bg.drain(2000);
    expect(settled).toBe(2);
  });

  it('logs a failing deferred task and goes on', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'error', sink: (line) => lines.push(line) });
    const bg = createBackgroundTasks(logger, { quietMs: 1 });
    bg.runWhenQuiet('fails', () => {
      throw new Error('boom');
    });
    await bg.drain(2000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('background task failed');
    expect(lines[0]).toContain('fails');
  });

  it('settle starts the work deferred for a key now and waits for it, not for other work', async () => {
    const activity = createActivity();
    const bg = createBackgroundTasks(silentLogger, { activity, quietMs: 10_000 });
    activity.begin(); // busy: nothing deferred would start on its own
    const done: string[] = [];
    bg.runWhenQuiet('a-1', () => void done.push('a-1'), { key: 'a', tag: 'c1' });
    bg.runWhenQuiet('a-2', () => void done.push('a-2'), { key: 'a', tag: 'c2' });
    bg.runWhenQuiet('b', () => void done.push('b'), { key: 'b', tag: 'c1' });
    await bg.settle('a', 2000, 'c2');
    expect(done).toContain('a-1');
    // Its own conversation's work is not waited for (it was started with the rest, though).
    await bg.settle('a', 2000, 'c1');
    await bg.drain(2000);
    expect(done.sort()).toEqual(['a-1', 'a-2', 'b']);
    // Nothing left for the key: settle returns at once.
    await bg.settle('a', 2000);
    expect(bg.size).toBe(0);
    activity.end();
  });

  it('settle gives up after its timeout', async () => {
    vi.useFakeTimers();
    try {
      const bg = createBackgroundTasks(silentLogger, { quietMs: 10_000 });
      bg.runWhenQuiet('stuck', () => new Promise(() => {}), { key: 'a', tag: 'c1' });
      let settled = false;
      const waiting = bg.settle('a', 50).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(settled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
