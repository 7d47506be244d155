// Every write function of the store replaces `<private>` spans itself (DESIGN §6), so a caller
// that forgets cannot leak them: checked here on each function, on the real encrypted database.
import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { getEpisode, insertEpisode, updateEpisode, upsertConversationEpisode } from './episodes.ts';
import { appendIdentityOverrides, getIdentity, putIdentity } from './identity.ts';
import type { Db } from './db.ts';
import { getPinned, insertPinned, updatePinned } from './pinned.ts';
import { recordTurn, recordTurns } from './transcript.ts';

const SECRET = 'Quokka-5521';
const hidden = `<private>${SECRET}</private>`;

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function db(): Db {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  return t.db;
}

function episode(agentId: string, conversationId: string | null, text: string) {
  return {
    agentId,
    conversationId,
    summary: `Summary ${text}`,
    topics: [`topic ${text}`],
    entities: [`entity ${text}`],
    decisions: [`decision ${text}`],
    actionItems: [`action ${text}`],
    salience: 0.5,
    conversationAt: 1,
  };
}

/** Whether any FTS mirror still finds the secret (the stemmed and the plain ones). */
function ftsFinds(d: Db, term: string): string[] {
  const tables = [
    'transcript_stem_fts',
    'episodes_fts',
    'episodes_stem_fts',
    'pinned_fts',
    'pinned_stem_fts',
  ];
  return tables.filter(
    (t) =>
      (
        d.prepare(`SELECT count(*) AS n FROM ${t} WHERE ${t} MATCH ?`).get(`"${term}"`) as {
          n: number;
        }
      ).n > 0,
  );
}

describe('store writes replace private spans', () => {
  it('transcript rows and their FTS entries, one turn or a batch', () => {
    const d = db();
    const one = recordTurn(d, {
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: 'user', content: `My code is ${hidden} ok`, createdAt: 1 }],
    });
    recordTurns(d, [
      {
        agentId: 'a',
        conversationId: 'c',
        messages: [{ role: 'assistant', content: `noted <private>${SECRET}`, createdAt: 2 }],
      },
    ]);
    const rows = d.prepare('SELECT content FROM transcript ORDER BY id').all() as {
      content: string;
    }[];
    expect(rows.map((r) => r.content)).toEqual(['My code is [private] ok', 'noted [private]']);
    expect(one.transcriptIds).toHaveLength(1);
    expect(ftsFinds(d, 'Quokka')).toEqual([]);
    // The row is still indexed, under its stored text.
    expect(
      d
        .prepare(`SELECT rowid FROM transcript_stem_fts WHERE transcript_stem_fts MATCH 'code'`)
        .all(),
    ).toEqual([{ rowid: one.transcriptIds[0] }]);
  });

  it('episodes: insert, upsert and edit, every text column', () => {
    const d = db();
    const id = insertEpisode(d, episode('a', null, hidden), 1);
    const up = upsertConversationEpisode(d, episode('a', 'c', hidden), 1);
    upsertConversationEpisode(d, episode('a', 'c', `again ${hidden}`), 2);
    const edited = insertEpisode(d, episode('a', null, 'plain'), 1);
    updateEpisode(
      d,
      'a',
      edited,
      {
        summary: hidden,
        topics: [hidden],
        entities: [hidden],
        decisions: [hidden],
        action_items: [hidden],
      },
      3,
    );
    for (const e of [id, up.id, edited]) {
      expect(JSON.stringify(getEpisode(d, 'a', e))).not.toContain(SECRET);
    }
    expect(getEpisode(d, 'a', id)!.topics).toEqual(['topic [private]']);
    expect(getEpisode(d, 'a', edited)!.summary).toBe('[private]');
    expect(ftsFinds(d, 'Quokka')).toEqual([]);
  });

  it('pinned facts: insert and edit, content and tags', () => {
    const d = db();
    const base = { agentId: 'a', salience: 0.5, pinnedByUser: true, sourceEpisodeId: null };
    const id = insertPinned(d, { ...base, content: `PIN ${hidden}`, tags: [hidden] }, 1);
    const other = insertPinned(d, { ...base, content: 'plain', tags: [] }, 1);
    updatePinned(d, 'a', other, { content: `new ${hidden}`, tags: [`t ${hidden}`] }, 2);
    expect(getPinned(d, 'a', id)).toMatchObject({ content: 'PIN [private]', tags: ['[private]'] });
    expect(getPinned(d, 'a', other)).toMatchObject({
      content: 'new [private]',
      tags: ['t [private]'],
    });
    expect(ftsFinds(d, 'Quokka')).toEqual([]);
  });

  it('identity: narrative and overrides, set or appended', () => {
    const d = db();
    putIdentity(d, 'a', { narrative: `Ada ${hidden}`, overrides: [`likes ${hidden}`] }, 1);
    appendIdentityOverrides(d, 'a', [`lives in <private>${SECRET}`], 2);
    expect(getIdentity(d, 'a')).toMatchObject({
      narrative: 'Ada [private]',
      overrides: ['likes [private]', 'lives in [private]'],
    });
    const raw = d.prepare('SELECT narrative, overrides FROM identity').all();
    expect(JSON.stringify(raw)).not.toContain(SECRET);
  });
});
