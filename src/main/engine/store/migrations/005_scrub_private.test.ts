import { describe, expect, it } from 'vitest';
import { findInDatabase, tableNames } from '../../../../../test/helpers/db-dump.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate, schemaVersion, type Db } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

// One token, left alone by the porter stemmer, so the FTS shadow tables would hold it as is.
const SECRET = 'zebrafin7741';

/** Rows as a version-4 Cairn wrote them: the transcript verbatim, its FTS entry by the writer. */
function transcriptRow(db: Db, content: string): number {
  const id = Number(
    db
      .prepare(
        `INSERT INTO transcript (agent_id, conversation_id, role, content, created_at) VALUES ('a', 'c', 'user', ?, 1)`,
      )
      .run(content).lastInsertRowid,
  );
  db.prepare('INSERT INTO transcript_stem_fts (rowid, content) VALUES (?, ?)').run(id, content);
  return id;
}

function episodeRow(db: Db, summary: string, topics: string[]): number {
  return Number(
    db
      .prepare(
        `INSERT INTO episodes (agent_id, conversation_id, summary, topics, conversation_at, created_at, updated_at)
         VALUES ('a', 'c', ?, ?, 1, 1, 1)`,
      )
      .run(summary, JSON.stringify(topics)).lastInsertRowid,
  );
}

function pinnedRow(db: Db, content: string, tags: string[]): number {
  return Number(
    db
      .prepare(
        `INSERT INTO pinned_facts (agent_id, content, tags, created_at, updated_at) VALUES ('a', ?, ?, 1, 1)`,
      )
      .run(content, JSON.stringify(tags)).lastInsertRowid,
  );
}

function vector(db: Db, kind: string, rowId: number): void {
  db.prepare(
    `INSERT INTO vectors (kind, row_id, agent_id, model, dims, embedding, created_at) VALUES (?, ?, 'a', 'm', 2, ?, 1)`,
  ).run(kind, rowId, Buffer.alloc(8));
}

const vectorsOf = (db: Db) =>
  db.prepare('SELECT kind, row_id AS rowId FROM vectors ORDER BY kind, row_id').all();

const ftsHits = (db: Db, fts: string, term: string) =>
  db
    .prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid`)
    .pluck()
    .all(`"${term}"`);

const ALL_FTS = [
  'transcript_stem_fts',
  'episodes_fts',
  'episodes_stem_fts',
  'pinned_fts',
  'pinned_stem_fts',
];

describe('migration 005 (private spans already stored are scrubbed)', () => {
  it('rewrites every text column that held a span, its FTS entries and its vector; deletes no row', () => {
    const db = dbAt(4);
    const t1 = transcriptRow(db, `My alarm code is <private>${SECRET}</private> at home`);
    const t2 = transcriptRow(db, `Unclosed <private>${SECRET} and the rest`);
    const tPlain = transcriptRow(db, 'Plain talk about gardening');
    const e1 = episodeRow(db, `Talked about <PRIVATE>${SECRET}</PRIVATE> gardening`, [
      'gardening',
      `<private>${SECRET}</private>`,
    ]);
    const ePlain = episodeRow(db, 'Talked about tomatoes', ['tomatoes']);
    const p1 = pinnedRow(db, `Alarm code: <private>${SECRET}</private>`, [`<private>${SECRET}`]);
    const pPlain = pinnedRow(db, 'Grows tomatoes', []);
    db.prepare(
      `INSERT INTO identity (agent_id, narrative, overrides, updated_at) VALUES ('a', ?, ?, 1)`,
    ).run(`Ada <private>${SECRET}</private>`, JSON.stringify([`code <private>${SECRET}`]));
    db.prepare(
      `INSERT INTO processing_log (kind, status, error, created_at) VALUES ('distill', 'error', ?, 1)`,
    ).run(`parse failed near <private>${SECRET}</private>`);
    db.prepare(
      `INSERT INTO pending_signals (agent_id, conversation_id, last_error, created_at, updated_at) VALUES ('a', 'c', ?, 1, 1)`,
    ).run(`<private>${SECRET}`);
    for (const id of [t1, t2, tPlain]) vector(db, 'transcript', id);
    for (const id of [e1, ePlain]) vector(db, 'episode', id);
    for (const id of [p1, pPlain]) vector(db, 'pinned', id);
    expect(findInDatabase(db, SECRET)).not.toEqual([]);
    expect(ftsHits(db, 'transcript_stem_fts', SECRET)).toEqual([t1, t2]);

    migrate(db, 5);
    expect(schemaVersion(db)).toBe(5);

    expect(db.prepare('SELECT id, content FROM transcript ORDER BY id').all()).toEqual([
      { id: t1, content: 'My alarm code is [private] at home' },
      { id: t2, content: 'Unclosed [private]' },
      { id: tPlain, content: 'Plain talk about gardening' },
    ]);
    expect(db.prepare('SELECT id, summary, topics FROM episodes ORDER BY id').all()).toEqual([
      { id: e1, summary: 'Talked about [private] gardening', topics: '["gardening","[private]"]' },
      { id: ePlain, summary: 'Talked about tomatoes', topics: '["tomatoes"]' },
    ]);
    expect(db.prepare('SELECT id, content, tags FROM pinned_facts ORDER BY id').all()).toEqual([
      { id: p1, content: 'Alarm code: [private]', tags: '["[private]"]' },
      { id: pPlain, content: 'Grows tomatoes', tags: '[]' },
    ]);
    expect(db.prepare('SELECT narrative, overrides FROM identity').get()).toEqual({
      narrative: 'Ada [private]',
      overrides: '["code [private]"]',
    });

    // Nothing of the secret anywhere: rows, FTS segments and page keys, diagnostics.
    expect(tableNames(db)).toEqual(expect.arrayContaining(['transcript_stem_fts_data']));
    expect(findInDatabase(db, SECRET)).toEqual([]);
    for (const fts of ALL_FTS) {
      expect(ftsHits(db, fts, SECRET)).toEqual([]);
      db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('integrity-check')`).run();
    }
    // The rewritten rows are found by their remaining words, the untouched ones as before.
    expect(ftsHits(db, 'transcript_stem_fts', 'gardening')).toEqual([tPlain]);
    expect(ftsHits(db, 'transcript_stem_fts', 'alarm')).toEqual([t1]);
    expect(ftsHits(db, 'episodes_stem_fts', 'gardening')).toEqual([e1]);
    expect(ftsHits(db, 'pinned_fts', 'alarm')).toEqual([p1]);

    // Stale vectors go (the backfill embeds those rows again); the others stay.
    expect(vectorsOf(db)).toEqual([
      { kind: 'episode', rowId: ePlain },
      { kind: 'pinned', rowId: pPlain },
      { kind: 'transcript', rowId: tPlain },
    ]);
  });

  it('leaves no term behind in an index of many pages (segment data and page keys)', () => {
    const db = dbAt(4);
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        const n = String(i).padStart(5, '0');
        transcriptRow(db, `note${n} filler <private>${SECRET}x${n}</private>`);
      }
    })();
    // The secret terms fill several leaf pages: some are the keys of the page index.
    expect(findInDatabase(db, SECRET)).toEqual(
      expect.arrayContaining(['transcript_stem_fts_data.block', 'transcript_stem_fts_idx.term']),
    );
    migrate(db, 5);
    expect(findInDatabase(db, SECRET)).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM transcript').pluck().get()).toBe(3000);
    expect(ftsHits(db, 'transcript_stem_fts', 'note01234')).toHaveLength(1);
    db.prepare(
      `INSERT INTO transcript_stem_fts (transcript_stem_fts) VALUES ('integrity-check')`,
    ).run();
  });

  it('leaves a database without private spans as it was', () => {
    const db = dbAt(4);
    const t = transcriptRow(db, 'Already says [private] and talks about privacy');
    const e = episodeRow(db, 'A private matter, in words only', ['privacy']);
    vector(db, 'transcript', t);
    vector(db, 'episode', e);
    const before = [
      db.prepare('SELECT * FROM transcript').all(),
      db.prepare('SELECT * FROM episodes').all(),
    ];
    migrate(db, 5);
    expect([
      db.prepare('SELECT * FROM transcript').all(),
      db.prepare('SELECT * FROM episodes').all(),
    ]).toEqual(before);
    expect(vectorsOf(db)).toHaveLength(2);
    expect(ftsHits(db, 'transcript_stem_fts', 'privacy')).toEqual([t]);
  });
});
