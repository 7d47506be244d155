import { describe, expect, it } from 'vitest';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import { searchDepsPerTest } from '../../../../test/helpers/search-deps.ts';
import type { Db } from '../store/migrate.ts';
import { updatePinned } from '../store/pinned.ts';
import { recordTurn } from '../store/transcript.ts';
import { createTermStats, matchFor, mmr, searchMemory, searchScope, speakerOf } from './search.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 1);
const setup = searchDepsPerTest(NOW);

function turns(db: Db, agentId: string, conversationId: string, lines: string[], at = NOW - DAY) {
  return recordTurn(db, {
    agentId,
    conversationId,
    messages: lines.map((content, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content,
      createdAt: at,
    })),
    now: at,
  }).transcriptIds;
}

const fact = (db: Db, agentId: string, content: string, sourceEpisodeId: number | null = null) =>
  addFact(db, { agentId, content, sourceEpisodeId }, NOW - DAY);

describe('transcript search', () => {
  it('finds stemmed matches and returns the API shape', async () => {
    const { db, deps } = setup();
    const [id] = turns(db, 'a', 'c1', ['I painted a sunrise over the lake', 'Lovely!']);
    const results = await searchMemory(deps, {
      agent_id: 'a',
      scope: 'transcript',
      query: 'When did I paint the sunrise?',
    });
    expect(results[0]).toEqual({
      id,
      scope: 'transcript',
      content: 'I painted a sunrise over the lake',
      score: expect.any(Number),
      created_at: new Date(NOW - DAY).toISOString(),
      conversation_id: 'c1',
    });
  });

  it('never returns another agent’s rows', async () => {
    const { db, deps } = setup();
    turns(db, 'alice', 'c', ['my secret project is called falcon', 'ok']);
    turns(db, 'bob', 'c', ['nothing to see', 'ok']);
    for (const query of ['falcon', 'project', 'alc']) {
      const r = await searchMemory(deps, { agent_id: 'bob', scope: 'transcript', query });
      expect(r.map((x) => x.content).join(' ')).not.toContain('falcon');
    }
  });

  it('honours days and top_k', async () => {
    const { db, deps } = setup();
    turns(db, 'a', 'old', ['we adopted a cat named Miso', 'nice'], NOW - 40 * DAY);
    turns(db, 'a', 'new', ['Miso the cat broke a vase', 'oh no'], NOW - 2 * DAY);
    const recent = await searchMemory(deps, {
      agent_id: 'a',
      scope: 'transcript',
      query: 'Miso cat',
      days: 7,
    });
    expect(recent.map((r) => r.conversation_id)).toEqual(['new']);
    const all = await searchMemory(deps, {
      agent_id: 'a',
      scope: 'transcript',
      query: 'Miso cat',
      top_k: 1,
    });
    expect(all).toHaveLength(1);
  });

  it('brings in the reply next to the turn that names the topic', async () => {
    const { db, deps } = setup();
    const noise = Array.from(
      { length: 30 },
      (_, i) => `unrelated chatter number ${i} about weather`,
    );
    turns(db, 'a', 'n', noise);
    const ids = turns(db, 'a', 'c', [
      'Rosalind: what did you think of the pottery class?',
      'Helena: I loved it, I made a bowl with blue glaze',
    ]);
    const r = await searchScope(deps, {
      agentId: 'a',
      scope: 'transcript',
      query: 'pottery class',
      topK: 3,
    });
    expect(r.map((h) => h.id)).toEqual(expect.arrayContaining(ids));
  });

  it('prefers turns spoken by the person the question names', async () => {
    const { db, deps } = setup();
    const [, rosalind] = turns(db, 'a', 'c', [
      'Helena: my hobby is painting landscapes',
      'Rosalind: my hobby is running marathons',
    ]);
    const r = await searchScope(deps, {
      agentId: 'a',
      scope: 'transcript',
      query: "What is Rosalind's hobby?",
    });
    expect(r[0]?.id).toBe(rosalind);
    expect(speakerOf('Rosalind: hi')).toBe('rosalind');
    expect(speakerOf('no label here')).toBeNull();
  });

  it('treats FTS5 syntax in the query as words and never fails', async () => {
    const { db, deps } = setup();
    turns(db, 'a', 'c', ['near the river AND the bridge', 'ok']);
    for (const query of ['"', 'NEAR(', 'AND', ')', '*', 'river*', 'a:b', "'; DROP TABLE x;--"]) {
      await expect(
        searchMemory(deps, { agent_id: 'a', scope: 'transcript', query }),
      ).resolves.toBeInstanceOf(Array);
    }
    const r = await searchMemory(deps, { agent_id: 'a', scope: 'transcript', query: 'NEAR(river' });
    expect(r).toHaveLength(1);
  });

  it('falls back to substring search when full-text search finds nothing', async () => {
    const { db, deps } = setup();
    turns(db, 'a', 'c', ['I write Python every day', 'ok']);
    turns(db, 'b', 'c', ['I write Python too', 'ok']);
    const r = await searchMemory(deps, { agent_id: 'a', scope: 'transcript', query: 'ython' });
    expect(r.map((x) => x.content)).toEqual(['I write Python every day']);
    // LIKE wildcards in the query are literal
    expect(await searchMemory(deps, { agent_id: 'a', scope: 'transcript', query: '%' })).toEqual(
      [],
    );
  });
});

describe('transcript search: a date the question names', () => {
  const MARCH_16 = Date.UTC(2025, 2, 16, 14);
  function seed(db: Db): number {
    // Turns of other days: small talk, and some that match more of the question's words than
    // the one asked about.
    for (let d = 0; d < 70; d++) {
      const at = Date.UTC(2025, 0, 1 + d, 14);
      const said =
        d % 3 === 0 ? 'Noor: exciting news about the team' : 'Noor: the weather was fine';
      turns(db, 'a', `day-${d}`, [said, 'Tomasz: glad to hear it'], at);
    }
    const [target] = turns(
      db,
      'a',
      'march-16',
      ['Noor: big news for the team, I joined a gym', 'Tomasz: good for you'],
      MARCH_16,
    );
    return target!;
  }

  it('searches that day and lifts its turns', async () => {
    const { db, deps } = setup();
    const target = seed(db);
    const question = 'What exciting news did Noor share with the team on 16 March, 2025?';
    const hits = await searchScope(deps, { agentId: 'a', scope: 'transcript', query: question });
    expect(hits[0]?.id).toBe(target);
    // Without the date's search and boost, better-matching turns of other days push it out.
    const undated = await searchScope(
      { ...deps, weights: { dated: 0 } },
      { agentId: 'a', scope: 'transcript', query: question },
    );
    expect(undated.map((h) => h.id)).not.toContain(target);
  });

  it('keeps to the days the caller allows', async () => {
    const { db, deps } = setup();
    const target = seed(db);
    const hits = await searchScope(deps, {
      agentId: 'a',
      scope: 'transcript',
      query: 'What exciting news did Noor share with the team on 16 March, 2025?',
      days: 30,
    });
    expect(hits.map((h) => h.id)).not.toContain(target);
  });

  it('reads relative dates against the clock ("yesterday")', async () => {
    const { db, deps } = setup();
    for (let d = 2; d < 80; d++) {
      turns(
        db,
        'a',
        `d${d}`,
        ['the lease renewal came up again, lease lease', 'ok'],
        NOW - d * DAY,
      );
    }
    const [target] = turns(db, 'a', 'y', ['signed the lease today', 'congrats'], NOW - DAY);
    const hits = await searchScope(deps, {
      agentId: 'a',
      scope: 'transcript',
      query: 'what did I say yesterday about the lease?',
    });
    expect(hits[0]?.id).toBe(target);
  });
});

describe('pinned and episode search', () => {
  it('returns active facts only, with the source episode’s conversation', async () => {
    const { db, deps } = setup();
    const ep = addEpisode(
      db,
      {
        agentId: 'a',
        conversationId: 'conv-9',
        summary: 'Talked about pets',
        topics: ['pets'],
        entities: ['Rex'],
      },
      NOW - 3 * DAY,
    );
    const active = fact(db, 'a', 'Has a dog named Rex', ep);
    const disabled = fact(db, 'a', 'Has a dog allergy');
    updatePinned(db, 'a', disabled, { status: 'disabled' }, NOW);
    fact(db, 'b', 'Has a dog named Spot');

    const r = await searchMemory(deps, { agent_id: 'a', scope: 'pinned', query: 'dogs' });
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ id: active, scope: 'pinned', conversation_id: 'conv-9' });

    const e = await searchMemory(deps, { agent_id: 'a', scope: 'episodes', query: 'Rex' });
    expect(e).toEqual([
      {
        id: ep,
        scope: 'episodes',
        content: 'Talked about pets',
        score: expect.any(Number),
        created_at: new Date(NOW - 3 * DAY).toISOString(),
        conversation_id: 'conv-9',
      },
    ]);
  });
});

describe('mmr', () => {
  it('keeps the best item and pushes near-duplicates down', () => {
    const items = [
      { hit: { content: 'I love green tea in the morning' }, score: 1 },
      { hit: { content: 'I love green tea in the morning!' }, score: 0.99 },
      { hit: { content: 'My brother lives in Lisbon' }, score: 0.9 },
    ];
    const picked = mmr(items, 2, 0.7);
    expect(picked.map((p) => p.hit.content)).toEqual([
      'I love green tea in the morning',
      'My brother lives in Lisbon',
    ]);
    expect(mmr(items, 3, 1).map((p) => p.score)).toEqual([1, 0.99, 0.9]);
    expect(mmr([], 3)).toEqual([]);
  });
});

/** `count` user turns of agent `a`, row i reading `lineOf(i)`, in one transaction. */
function manyTurns(db: Db, count: number, lineOf: (i: number) => string): void {
  const messages = Array.from({ length: count }, (_, i) => ({
    role: 'user' as const,
    content: lineOf(i),
    createdAt: NOW - DAY,
  }));
  db.transaction(() => recordTurn(db, { agentId: 'a', conversationId: 'big', messages }))();
}

describe('term pruning by the rows a query would have scored', () => {
  it('counts nothing while the table holds no more rows than a search may score', () => {
    const { db, deps } = setup();
    const stats = createTermStats();
    manyTurns(db, 50, (i) => `Rowan: the weather was sunny ${i}`);
    expect(matchFor({ ...deps, termStats: stats }, 'transcript', ['rowan', 'sunny'])).toEqual({
      primary: '"rowan" OR "sunny"',
      wider: null,
      large: false,
    });
    expect(stats.df.size).toBe(0);
  });

  it('drops a name found in every row of a 3k-row labelled log, and finds the rare word', async () => {
    const { db, deps } = setup();
    const stats = createTermStats();
    manyTurns(db, 3_000, (i) =>
      i === 2_500 ? 'Rowan: the axolotl escaped from its tank' : `Rowan: a quiet evening ${i}`,
    );
    const withStats = { ...deps, termStats: stats };
    // 3,001 rows would be scored for "rowan OR axolotl": pruned, though far below 20k rows.
    expect(matchFor(withStats, 'transcript', ['rowan', 'axolotl'])).toEqual({
      primary: '"axolotl"',
      wider: null,
      large: true,
    });
    const r = await searchScope(withStats, {
      agentId: 'a',
      scope: 'transcript',
      query: 'What did Rowan say about the axolotl?',
      topK: 3,
    });
    expect(r[0]?.content).toBe('Rowan: the axolotl escaped from its tank');
  });

  it('ranks only the recent matches of a single word found in more rows than a search may score', async () => {
    const { db, deps } = setup();
    const withStats = { ...deps, termStats: createTermStats() };
    manyTurns(db, 3_000, (i) =>
      i === 2_990 ? 'I work nights' : `work was busy again and the evening dragged on and on ${i}`,
    );
    // 3,000 rows hold "work": BM25 scores only the newest of them, as it would for two words.
    expect(matchFor(withStats, 'transcript', ['work'])).toEqual({
      primary: '"work"',
      wider: null,
      large: true,
    });
    const r = await searchScope(withStats, {
      agentId: 'a',
      scope: 'transcript',
      query: 'What do I do for work?',
      topK: 20,
    });
    expect(r[0]?.content).toBe('I work nights');
    // A word in few rows is matched as it is, without a window.
    manyTurns(db, 1, () => 'the axolotl escaped');
    expect(matchFor(withStats, 'transcript', ['axolotl']).large).toBe(false);
  });

  it('matches every term of a 21k-row memory when together they occur in few rows', () => {
    const { db, deps } = setup();
    manyTurns(db, 21_000, (i) =>
      i < 300
        ? `a kayak trip ${i}`
        : i < 500
          ? `down the river ${i}`
          : `the weather was sunny ${i}`,
    );
    // 500 rows to score: BM25 ranks them all, as it would on a small memory.
    expect(
      matchFor({ ...deps, termStats: createTermStats() }, 'transcript', ['kayak', 'river']),
    ).toEqual({ primary: '"kayak" OR "river"', wider: null, large: false });
  });

  it('counts a term again once the table has grown, before its cached count is trusted', () => {
    const { db, deps } = setup();
    const withStats = { ...deps, termStats: createTermStats() };
    manyTurns(db, 3_000, (i) =>
      i === 7
        ? 'an axolotl in the pond'
        : i % 3 === 0
          ? `Rowan: hello ${i}`
          : `a quiet evening ${i}`,
    );
    // 1,001 rows to score: every term (the clock is stopped, so no count expires by age).
    expect(matchFor(withStats, 'transcript', ['rowan', 'axolotl']).primary).toBe(
      '"rowan" OR "axolotl"',
    );
    manyTurns(db, 27_000, (i) => `Rowan: more news ${i}`);
    // Ten times the rows: "rowan" is counted again (28k rows) and left out.
    expect(matchFor(withStats, 'transcript', ['rowan', 'axolotl'])).toEqual({
      primary: '"axolotl"',
      wider: null,
      large: true,
    });
  });

  it('lets the rarest terms match alone while together they fit, and pairs the rest', () => {
    const { db, deps } = setup();
    manyTurns(db, 5_000, (i) => {
      const word =
        i < 600 ? 'heron' : i < 1_500 ? 'otter' : i < 3_000 ? 'badger' : i < 4_600 ? 'marten' : '';
      return `seen near the lake ${word} ${i}`;
    });
    // 600 + 900 rows fit in one search's scoring; badger (1,500) and marten (1,600) do not.
    expect(
      matchFor({ ...deps, termStats: createTermStats() }, 'transcript', [
        'marten',
        'badger',
        'otter',
        'heron',
      ]),
    ).toEqual({
      primary: '"heron" OR "otter" OR ("badger" AND "marten")',
      wider: '"heron" OR "otter" OR "badger" OR "marten"',
      large: true,
    });
  });
});

describe('term statistics on a large memory', () => {
  it('leaves near-ubiquitous terms out of the match and still finds the rare one', async () => {
    const { db, deps } = setup();
    const stats = createTermStats();
    const messages = Array.from({ length: 21_000 }, (_, i) => ({
      role: 'user' as const,
      content:
        i === 20_500 ? 'the weather was sunny and the axolotl ate' : `the weather was sunny ${i}`,
      createdAt: NOW - DAY,
    }));
    db.transaction(() => recordTurn(db, { agentId: 'a', conversationId: 'big', messages }))();
    const r = await searchScope(
      { ...deps, termStats: stats },
      { agentId: 'a', scope: 'transcript', query: 'sunny weather axolotl', topK: 3 },
    );
    expect(r[0]?.content).toBe('the weather was sunny and the axolotl ate');
    // "weather" and "sunny" are in every row: counted (capped) and dropped
    expect(stats.df.get('transcript\u0000weather')?.n).toBeGreaterThan(2_000);
    expect(stats.df.get('transcript\u0000axolotl')?.n).toBe(1);
  });

  it('keeps dropping a common term after the memory grew past the count it was capped at', () => {
    const { db, deps } = setup();
    const stats = createTermStats();
    const messages = Array.from({ length: 21_000 }, (_, i) => ({
      role: 'user' as const,
      content: i % 2 === 0 ? `the weather was sunny ${i}` : `a quiet evening ${i}`,
      createdAt: NOW - DAY,
    }));
    messages[7]!.content = 'an axolotl in the pond';
    db.transaction(() => recordTurn(db, { agentId: 'a', conversationId: 'big', messages }))();
    const withStats = { ...deps, termStats: stats };
    const terms = ['weather', 'sunny', 'axolotl'];
    // 21k rows: a term in more than 2,000 rows is left out; "weather" and "sunny" (10,500
    // rows each) were counted only up to 2,001.
    expect(matchFor(withStats, 'transcript', terms)).toEqual({
      primary: '"axolotl"',
      wider: null,
      large: true,
    });
    // The row count is max(id): one row with a large id lifts the limit to 10,000 rows, above
    // the cached 2,001, while the real counts stay far above both (and the cache is fresh).
    db.prepare(
      `INSERT INTO transcript (id, agent_id, conversation_id, role, content, created_at)
       VALUES (200000, 'a', 'big', 'user', 'later', ?)`,
    ).run(NOW);
    expect(matchFor(withStats, 'transcript', terms).primary).toBe('"axolotl"');
  });
});
