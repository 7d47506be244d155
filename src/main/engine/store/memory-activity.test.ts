import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import {
  clearActivityLines,
  deleteAgentActivity,
  insertActivity,
  listActivity,
  recordActivity,
  type NewActivity,
} from './memory-activity.ts';
import { getEpisode } from './episodes.ts';
import { getPinned } from './pinned.ts';

const db = databasePerTest();

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
    expect(oldest).toMatchObject(activity({ at: 1 }));
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

  it("records the activity and its block's usage together, for this agent's rows only", () => {
    const d = db();
    const fact = (agentId: string) => addFact(d, { agentId, content: 'Likes tea' }, 10);
    const mine = fact('a');
    const theirs = fact('b');
    const episode = addEpisode(
      d,
      { agentId: 'a', conversationId: 'conv', summary: 'Talked about tea' },
      10,
    );
    recordActivity(d, activity(), { pinned: [mine, theirs], episodes: [episode], at: 5_000 });
    expect(listActivity(d, { agentId: 'a', limit: 10 })).toHaveLength(1);
    expect(getPinned(d, 'a', mine)).toMatchObject({ use_count: 1, last_used: 5_000 });
    expect(getPinned(d, 'b', theirs)).toMatchObject({ use_count: 0 });
    expect(getEpisode(d, 'a', episode)?.last_used).toBe(5_000);
  });
});
