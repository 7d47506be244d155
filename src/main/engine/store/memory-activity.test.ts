import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import {
  clearActivityLines,
  deleteAgentActivity,
  insertActivity,
  listActivity,
  type NewActivity,
} from './memory-activity.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function db() {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  return t.db;
}

const activity = (over: Partial<NewActivity> = {}): NewActivity => ({
  agentId: 'a',
  at: 1_000,
  conversationId: 'conv',
  protocol: 'chat',
  section: 'pinned',
  tokens: 42,
  header: 'injected; tokens=42; section=pinned',
  sources: [
    { scope: 'identity', id: null },
    { scope: 'pinned', id: 7 },
  ],
  lines: null,
  ...over,
});

describe('memory activity store', () => {
  it('stores sources without text unless lines are given, and lists newest first', () => {
    const d = db();
    insertActivity(d, activity({ at: 1 }));
    insertActivity(d, activity({ at: 2, lines: ['The user is a nurse.', 'Likes tea.'] }));
    const [newest, oldest] = listActivity(d, { agentId: 'a', limit: 10 });
    expect(newest).toMatchObject({ at: 2, lines: ['The user is a nurse.', 'Likes tea.'] });
    expect(oldest).toMatchObject({
      at: 1,
      agentId: 'a',
      conversationId: 'conv',
      protocol: 'chat',
      section: 'pinned',
      tokens: 42,
      header: 'injected; tokens=42; section=pinned',
      sources: [
        { scope: 'identity', id: null },
        { scope: 'pinned', id: 7 },
      ],
      lines: null,
    });
    const raw = d.prepare('SELECT lines FROM memory_activity WHERE at = 1').get() as {
      lines: string | null;
    };
    expect(raw.lines).toBeNull();
  });

  it('keeps the newest N rows per agent, without touching other agents', () => {
    const d = db();
    for (let i = 1; i <= 7; i++) insertActivity(d, activity({ at: i }), 3);
    insertActivity(d, activity({ agentId: 'b', at: 100 }), 3);
    expect(listActivity(d, { agentId: 'a', limit: 10 }).map((r) => r.at)).toEqual([7, 6, 5]);
    expect(listActivity(d, { agentId: 'b', limit: 10 }).map((r) => r.at)).toEqual([100]);
    expect(listActivity(d, { limit: 2 }).map((r) => r.agentId)).toEqual(['b', 'a']);
  });

  it('forgets one agent, and drops kept text when asked', () => {
    const d = db();
    insertActivity(d, activity({ lines: ['x', 'y'] }));
    insertActivity(d, activity({ agentId: 'b', lines: ['z', 'w'] }));
    expect(clearActivityLines(d)).toBe(2);
    expect(listActivity(d, { limit: 10 }).every((r) => r.lines === null)).toBe(true);
    expect(deleteAgentActivity(d, 'a')).toBe(1);
    expect(listActivity(d, { limit: 10 }).map((r) => r.agentId)).toEqual(['b']);
  });
});
