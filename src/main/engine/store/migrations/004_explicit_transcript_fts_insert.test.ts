import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion, type Db } from '../migrate.ts';
import { recordTurn, recordTurns } from '../transcript.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';

const dbAt = databaseAtVersionPerTest();

const hits = (db: Db, q: string) =>
  (
    db
      .prepare(
        `SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH ? ORDER BY rowid`,
      )
      .all(q) as { rowid: number }[]
  ).map((r) => r.rowid);

const ftsIntegrityCheck = (db: Db) =>
  db.prepare(`INSERT INTO transcript_stem_fts (transcript_stem_fts) VALUES ('integrity-check')`);

describe('migration 004 (transcript rows indexed by their writer, not a trigger)', () => {
  it('removes only the insert trigger; rows indexed before stay found', () => {
    const db = dbAt(3);
    const old = recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: 'user', content: 'I painted a sunrise', createdAt: 1 }],
    }).transcriptIds[0]!;
    const triggersBefore = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)
      .pluck()
      .all();
    expect(triggersBefore).toContain('transcript_stem_ai');

    migrate(db, 4);
    expect(schemaVersion(db)).toBe(4);
    const triggers = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)
      .pluck()
      .all();
    expect(triggers).toEqual(triggersBefore.filter((t) => t !== 'transcript_stem_ai'));
    // Nothing that fires on INSERT into transcript is left: such a statement would open a
    // statement journal, and FTS5 flushes at every savepoint.
    expect(
      db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'transcript' AND sql LIKE '%AFTER INSERT%'`,
        )
        .all(),
    ).toEqual([]);
    expect(hits(db, 'painting')).toEqual([old]);
    expect(() => ftsIntegrityCheck(db).run()).not.toThrow();
  });

  it('recordTurn and recordTurns index what they write; update and delete stay in sync', () => {
    const db = dbAt(3);
    migrate(db, 4);
    const one = recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [
        { role: 'user', content: 'we went hiking in the hills', createdAt: 1 },
        { role: 'assistant', content: 'hills are lovely in spring', createdAt: 2 },
      ],
    }).transcriptIds;
    const batch = recordTurns(
      db,
      Array.from({ length: 300 }, (_, i) => ({
        agentId: 'b',
        conversationId: `c${i % 3}`,
        messages: [{ role: 'user' as const, content: `note ${i} about my garden`, createdAt: i }],
      })),
    ).flatMap((r) => r.transcriptIds);
    expect(hits(db, 'hike')).toEqual([one[0]]);
    expect(hits(db, 'hill')).toEqual(one);
    expect(hits(db, 'gardens')).toEqual(batch);

    db.prepare(`UPDATE transcript SET content = 'a quiet evening' WHERE id = ?`).run(one[0]);
    expect(hits(db, 'hike')).toEqual([]);
    expect(hits(db, 'evenings')).toEqual([one[0]]);
    db.prepare(`DELETE FROM transcript WHERE agent_id = 'b'`).run();
    expect(hits(db, 'garden')).toEqual([]);
    // FTS5's own check that the index matches the content table (throws on a mismatch).
    expect(() => ftsIntegrityCheck(db).run()).not.toThrow();
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a failed batch leaves neither rows nor index entries behind', () => {
    const db = dbAt(3);
    migrate(db, 4);
    expect(() =>
      recordTurns(db, [
        {
          agentId: 'a',
          conversationId: 'c',
          messages: [{ role: 'user', content: 'the blue lagoon trip', createdAt: 1 }],
        },
        // role is checked by the table: the whole batch is rolled back
        {
          agentId: 'a',
          conversationId: 'c',
          messages: [{ role: 'narrator' as 'user', content: 'lagoon', createdAt: 2 }],
        },
      ]),
    ).toThrow();
    expect(db.prepare('SELECT count(*) FROM transcript').pluck().get()).toBe(0);
    expect(hits(db, 'lagoon')).toEqual([]);
    expect(() => ftsIntegrityCheck(db).run()).not.toThrow();
  });
});
