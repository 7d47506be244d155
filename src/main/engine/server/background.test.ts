import { describe, expect, it } from 'vitest';
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
});
