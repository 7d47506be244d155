import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { fixedClock } from '../clock.ts';
import { isCairnError } from '../errors.ts';
import { insertPinned } from '../store/pinned.ts';
import { exportSizeEstimate } from '../store/memory-transfer.ts';
import { recordTurn } from '../store/transcript.ts';
import { exportMemory } from './export.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function seeded() {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  const at = Date.UTC(2022, 0, 1);
  for (let i = 0; i < 40; i++) {
    recordTurn(t.db, {
      agentId: i % 2 ? 'a' : 'b',
      conversationId: `c${i % 5}`,
      messages: [
        {
          role: 'user',
          content: `Question number ${i} about the garden and the weather.`,
          createdAt: at + i,
        },
        {
          role: 'assistant',
          content: `Answer ${i}: water the tomatoes in the evening.`,
          createdAt: at + i,
        },
      ],
      now: at,
    });
  }
  insertPinned(
    t.db,
    {
      agentId: 'a',
      content: 'Grows tomatoes',
      salience: 0.8,
      tags: ['garden'],
      pinnedByUser: true,
      sourceEpisodeId: null,
    },
    at,
  );
  return { db: t.db, clock: fixedClock(Date.UTC(2025, 0, 1)) };
}

describe('exportMemory', () => {
  it('estimates the size of the JSON before building it, close to the real one', () => {
    const deps = seeded();
    const actual = JSON.stringify(exportMemory(deps, { agentIds: ['a'], maxBytes: 1e9 })).length;
    const estimate = exportSizeEstimate(deps.db, ['a']);
    expect(estimate).toBeGreaterThan(actual * 0.8);
    expect(estimate).toBeLessThan(actual * 1.5);
  });

  it('refuses an export above the limit with a 400 that says what to do instead', () => {
    const deps = seeded();
    const estimate = exportSizeEstimate(deps.db, ['a', 'b']);
    let err: unknown;
    try {
      exportMemory(deps, { maxBytes: estimate - 1 });
    } catch (e) {
      err = e;
    }
    expect(isCairnError(err) && err.status).toBe(400);
    expect(isCairnError(err) && err.code).toBe('payload_too_large');
    expect((err as Error).message).toMatch(/Export fewer agents at a time/);
    expect(
      exportMemory(deps, { maxBytes: estimate })
        .agents.map((a) => a.id)
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('exports an agent Cairn does not know as empty, and keeps the order asked for', () => {
    const deps = seeded();
    const doc = exportMemory(deps, { agentIds: ['nobody', 'a'], maxBytes: 1e9 });
    expect(doc.exported_at).toBe('2025-01-01T00:00:00.000Z');
    expect(doc.agents.map((a) => [a.id, a.transcript.length, a.pinned.length])).toEqual([
      ['nobody', 0, 0],
      ['a', 40, 1],
    ]);
  });
});
