import { describe, expect, it } from 'vitest';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { trashRows } from '../../../../test/helpers/trash-rows.ts';
import {
  getTranscriptRow,
  getTranscriptRows,
  listTranscript,
  recordTurn,
  recordTurns,
} from './transcript.ts';

const db = databasePerTest();

describe('transcript repository', () => {
  it('records the messages and one pending signal spanning them', () => {
    const d = db();
    const r = recordTurn(d, {
      agentId: 'a',
      conversationId: 'c1',
      now: 5000,
      messages: [
        { role: 'user', content: 'hello there', createdAt: 1000 },
        { role: 'assistant', content: 'hi!', createdAt: 1001 },
      ],
    });
    expect(r.transcriptIds).toHaveLength(2);
    const signal = d.prepare('SELECT * FROM pending_signals WHERE id = ?').get(r.signalId) as {
      status: string;
      first_transcript_id: number;
      last_transcript_id: number;
      agent_id: string;
    };
    expect(signal).toMatchObject({
      status: 'pending',
      agent_id: 'a',
      first_transcript_id: r.transcriptIds[0],
      last_transcript_id: r.transcriptIds[1],
    });
    const row = getTranscriptRow(d, 'a', r.transcriptIds[0]!);
    expect(row).toMatchObject({ role: 'user', content: 'hello there', conversation_id: 'c1' });
    expect(row?.created_at).toBe(new Date(1000).toISOString());
  });

  it('rolls back the rows when the signal cannot be written', () => {
    const d = db();
    // A role the schema rejects makes the second insert fail: nothing may remain.
    expect(() =>
      recordTurn(d, {
        agentId: 'a',
        conversationId: 'c',
        messages: [
          { role: 'user', content: 'one', createdAt: 1 },
          { role: 'bogus' as 'user', content: 'two', createdAt: 2 },
        ],
      }),
    ).toThrow();
    expect(d.prepare('SELECT count(*) AS n FROM transcript').get()).toEqual({ n: 0 });
    expect(d.prepare('SELECT count(*) AS n FROM pending_signals').get()).toEqual({ n: 0 });
  });

  it('records several turns in one transaction, all or none', () => {
    const d = db();
    const turn = (i: number, role = 'user') => ({
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: role as 'user', content: `message ${i}`, createdAt: i }],
    });
    const results = recordTurns(d, [turn(1), turn(2), turn(3)]);
    expect(results.map((r) => r.transcriptIds.length)).toEqual([1, 1, 1]);
    const ids = results.map((r) => r.transcriptIds[0]!);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(d.prepare('SELECT count(*) AS n FROM pending_signals').get()).toEqual({ n: 3 });
    expect(() => recordTurns(d, [turn(4), turn(5, 'bogus'), turn(6)])).toThrow();
    expect(d.prepare('SELECT count(*) AS n FROM transcript').get()).toEqual({ n: 3 });
    expect(d.prepare('SELECT count(*) AS n FROM pending_signals').get()).toEqual({ n: 3 });
  });

  it('lists, filters and deletes per agent only', () => {
    const d = db();
    for (let i = 0; i < 5; i++) {
      recordTurn(d, {
        agentId: i % 2 ? 'b' : 'a',
        conversationId: `c${i}`,
        messages: [{ role: 'user', content: `message 100% number ${i}`, createdAt: i }],
      });
    }
    const a = listTranscript(d, { agentId: 'a', limit: 2, offset: 0 });
    expect(a.total).toBe(3);
    expect(a.items.map((r) => r.content)).toEqual([
      'message 100% number 4',
      'message 100% number 2',
    ]);
    expect(listTranscript(d, { agentId: 'a', limit: 10, offset: 2 }).items).toHaveLength(1);
    expect(listTranscript(d, { agentId: 'a', limit: 10, offset: 0, q: 'number 3' }).total).toBe(0);
    expect(listTranscript(d, { agentId: 'b', limit: 10, offset: 0, q: '100%' }).total).toBe(2);
    expect(listTranscript(d, { agentId: 'a', limit: 10, offset: 0, q: '100_' }).total).toBe(0);
    const bRow = listTranscript(d, { agentId: 'b', limit: 1, offset: 0 }).items[0]!;
    expect(getTranscriptRow(d, 'a', bRow.id)).toBeNull();
    expect(getTranscriptRows(d, 'a', [bRow.id])).toEqual([]);
    expect(trashRows(d, 'a', 'transcript', [bRow.id])).toBe(0);
    expect(trashRows(d, 'b', 'transcript', [bRow.id])).toBe(1);
    expect(getTranscriptRow(d, 'b', bRow.id)).toBeNull();
    // The FTS mirror forgets it too.
    expect(bRow.content).toBe('message 100% number 3');
    const ftsCount = (phrase: string) =>
      (
        d
          .prepare(
            'SELECT count(*) AS n FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ?',
          )
          .get(`"${phrase}"`) as { n: number }
      ).n;
    expect(ftsCount('number 3')).toBe(0);
    expect(ftsCount('number 1')).toBe(1);
  });

  it('reads rows by id for one agent, in id order, each once', () => {
    const d = db();
    const msg = (content: string) => ({ role: 'user' as const, content, createdAt: 1 });
    const a = recordTurn(d, {
      agentId: 'a',
      conversationId: 'c',
      messages: [msg('one'), msg('two'), msg('three')],
    });
    const b = recordTurn(d, { agentId: 'b', conversationId: 'c', messages: [msg('other')] });
    const [one, two, three] = a.transcriptIds as [number, number, number];
    const rows = getTranscriptRows(d, 'a', [three, one, b.transcriptIds[0]!, three, 999_999]);
    expect(rows.map((r) => r.content)).toEqual(['one', 'three']);
    expect(getTranscriptRows(d, 'a', [two]).map((r) => r.id)).toEqual([two]);
  });
});
