import { describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import type { Digest } from '../../../shared/digest.ts';
import { getIdentity } from '../store/identity.ts';
import { listEpisodes } from '../store/episodes.ts';
import { factsByRelation, listPinned } from '../store/pinned.ts';
import { identityKey, storeDigest } from './facts.ts';
import type { VectorService } from '../services.ts';
import type { Db } from '../store/db.ts';
import { WORD_VECTORS_MODEL_ID } from '../vector/word-vectors.ts';
import { jaccard, statementWords as wordSet } from '../text/text.ts';

const db = databasePerTest();

/** The digest of agent a's conversation c (held at time 1) with these facts, stored at `now`. */
function storeInConversation(d: Db, facts: string[], now: number) {
  return storeDigest({
    db: d,
    agentId: 'a',
    conversationId: 'c',
    conversationAt: 1,
    digest: digest(facts),
    now,
  });
}

/** One fact, the digest of its own conversation `c<at>` of agent a, held and stored at `at`. */
function storeAlone(d: Db, fact: string, at: number) {
  return storeDigest({
    db: d,
    agentId: 'a',
    conversationId: `c${at}`,
    conversationAt: at,
    digest: digest([fact]),
    now: at,
  });
}

function digest(facts: string[], extra: Partial<Digest> = {}): Digest {
  return {
    episode: {
      summary: 'Talked about food.',
      topics: ['food'],
      entities: [],
      decisions: [],
      action_items: [],
      salience: 0.5,
    },
    pinned_candidates: facts.map((content) => ({ content, salience: 0.5, tags: [] })),
    identity_facts: [],
    ...extra,
  };
}

const facts = (d: ReturnType<typeof db>, agent = 'a') =>
  listPinned(d, { agentId: agent, status: 'all', sort: 'created_at', limit: 100, offset: 0 }).items;

describe('jaccard', () => {
  it('compares word sets', () => {
    expect(jaccard(wordSet('User likes tea'), wordSet('user likes TEA.'))).toBe(1);
    expect(jaccard(wordSet('User likes tea'), wordSet('User likes coffee'))).toBe(0.5);
  });
});

describe('storeDigest', () => {
  it('deduplicates candidates against existing facts and bumps the source count', async () => {
    const d = db();
    await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c1',
      conversationAt: 1,
      digest: digest(['User is vegetarian', 'User lives in Berlin']),
      now: 10,
    });
    const r = await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c2',
      conversationAt: 2,
      digest: digest(['The user is vegetarian', 'User likes jazz', 'User likes jazz']),
      now: 20,
    });
    expect(r.factsAdded).toHaveLength(1);
    expect(r.factsBumped).toHaveLength(1);
    const list = facts(d);
    expect(list.map((f) => f.content).sort()).toEqual([
      'User is vegetarian',
      'User likes jazz',
      'User lives in Berlin',
    ]);
    const veg = list.find((f) => f.content === 'User is vegetarian')!;
    expect(veg.source_count).toBe(2);
    expect(veg.salience).toBeCloseTo(0.55);
    // another agent's facts are never used for dedup
    await storeDigest({
      db: d,
      agentId: 'b',
      conversationId: 'c1',
      conversationAt: 1,
      digest: digest(['User is vegetarian']),
      now: 30,
    });
    expect(facts(d, 'b')).toHaveLength(1);
  });

  it('strips <private> spans from everything it stores', async () => {
    const d = db();
    await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c',
      conversationAt: 1,
      now: 1,
      digest: digest(['User PIN is <private>4321</private>', '<private>secret fact</private>'], {
        identity_facts: ['User is <private>Batman</private> Ada'],
        episode: {
          summary: 'Discussed the bank <private>account 1234</private> login.',
          topics: ['<private>x</private>', 'bank'],
          entities: [],
          decisions: [],
          action_items: [],
          salience: 0.5,
        },
      }),
    });
    const all = JSON.stringify([
      facts(d),
      listEpisodes(d, { agentId: 'a', limit: 10, offset: 0 }),
      getIdentity(d, 'a'),
    ]);
    expect(all).not.toMatch(/4321|secret fact|Batman|account 1234|<\/?private/);
    // A fact that was nothing but a private span is dropped, not stored as "[private]".
    expect(facts(d).map((f) => f.content)).toEqual(['User PIN is [private]']);
    expect(getIdentity(d, 'a').overrides).toEqual(['User is [private] Ada']);
  });

  it('keeps one episode per conversation and links facts to it', async () => {
    const d = db();
    const r1 = await storeInConversation(d, ['User has a cat'], 1);
    const r2 = await storeInConversation(d, ['User has a dog'], 2);
    expect(r2.episodeId).toBe(r1.episodeId);
    expect(listEpisodes(d, { agentId: 'a', limit: 10, offset: 0 }).total).toBe(1);
    expect(facts(d).every((f) => f.source_episode_id === r1.episodeId)).toBe(true);
  });
});

describe('identityKey', () => {
  it.each([
    ['User lives in Berlin', 'user|location'],
    ['User moved to Paris', 'user|location'],
    ["User's name is Ada", 'user|name is'],
    ['User works at Acme', 'user|employer'],
    ['User works as a nurse', 'user|job'],
    ['User is a vegetarian', null],
    ['Helena is 34 years old', 'helena|age'],
    ['User likes tea', null],
  ])('%j → %j', (fact, key) => {
    expect(identityKey(fact)).toBe(key);
  });

  it('does not count a re-distilled conversation as a new source', async () => {
    const d = db();
    const r1 = await storeInConversation(d, ['User likes jazz'], 1);
    const r2 = await storeInConversation(d, ['User likes jazz', 'User plays piano'], 2);
    expect(r2.factsBumped).toEqual([]);
    expect(r2.factsAdded).toHaveLength(1);
    expect(facts(d).find((f) => f.id === r1.factsAdded[0])!.source_count).toBe(1);
  });
});

describe('storeDigest: typed facts', () => {
  const typed = (
    content: string,
    relation: string,
    object: string,
    extra: Partial<Digest['pinned_candidates'][number]> = {},
  ) => ({ content, salience: 0.6, tags: [relation], subject: 'user', relation, object, ...extra });

  const store = (
    d: ReturnType<typeof db>,
    candidates: Digest['pinned_candidates'],
    at = 1,
    extra: Partial<Digest> = {},
  ) =>
    storeDigest({
      db: d,
      agentId: 'a',
      conversationId: `c${at}`,
      conversationAt: at,
      digest: { ...digest([]), pinned_candidates: candidates, ...extra },
      now: at,
    });

  it('a newer value of a single-valued relation supersedes the older one, kept as history', async () => {
    const d = db();
    await store(
      d,
      [typed('User lives in Berlin', 'lives_in', 'Berlin', { valid_from: '2020-01-01' })],
      1,
      {
        identity_facts: ['User lives in Berlin'],
      },
    );
    const r = await store(
      d,
      [
        typed('User moved to Lisbon (March 2024)', 'lives_in', 'Lisbon', {
          valid_from: '2024-03-01',
          source_ids: [7],
        }),
      ],
      2,
      { identity_facts: ['User moved to Lisbon (March 2024)'] },
    );
    expect(r.factsSuperseded).toHaveLength(1);
    // Listing (and every search) shows only the current fact; history is kept.
    expect(facts(d).map((f) => f.content)).toEqual(['User moved to Lisbon (March 2024)']);
    const all = listPinned(d, {
      agentId: 'a',
      status: 'all',
      sort: 'created_at',
      limit: 10,
      offset: 0,
      history: true,
    }).items;
    const berlin = all.find((f) => f.object === 'Berlin')!;
    expect(berlin.superseded_at).toBe(Date.UTC(2024, 2, 1));
    const lisbon = all.find((f) => f.object === 'Lisbon')!;
    expect(lisbon).toMatchObject({
      subject: 'user',
      relation: 'lives_in',
      valid_from: Date.UTC(2024, 2, 1),
      superseded_at: null,
      conversation_id: 'c2',
      source_ids: [7],
    });
    expect(getIdentity(d, 'a').overrides).toEqual(['User moved to Lisbon (March 2024)']);
    expect(factsByRelation(d, 'a', ['lives_in']).map((f) => f.object)).toEqual(['Lisbon']);
  });

  it('an older value arriving later is stored as history at once', async () => {
    const d = db();
    await store(
      d,
      [typed('User lives in Lisbon', 'lives_in', 'Lisbon', { valid_from: '2024-03-01' })],
      1,
    );
    await store(
      d,
      [typed('User lives in Berlin', 'lives_in', 'Berlin', { valid_from: '2019-05-01' })],
      2,
    );
    expect(facts(d).map((f) => f.object)).toEqual(['Lisbon']);
  });

  it('the same triple again bumps source_count instead of duplicating', async () => {
    const d = db();
    await store(d, [typed('User plays the cello', 'instrument', 'cello')], 1);
    const r = await store(d, [typed('User plays the Cello', 'instrument', 'Cello')], 2);
    expect(r.factsAdded).toEqual([]);
    expect(facts(d)).toHaveLength(1);
    expect(facts(d)[0]!.source_count).toBe(2);
  });

  it('multi-valued relations accumulate; an ended statement retires the value it names', async () => {
    const d = db();
    await store(
      d,
      [typed('User uses Jenkins', 'tool', 'Jenkins'), typed('User uses Slack', 'tool', 'Slack')],
      1,
    );
    const r = await store(
      d,
      [
        typed('User no longer uses Jenkins', 'tool', 'Jenkins', { ended: true }),
        typed('User uses GitHub Actions', 'tool', 'GitHub Actions'),
      ],
      2,
    );
    expect(r.factsSuperseded).toHaveLength(1);
    expect(
      factsByRelation(d, 'a', ['tool'])
        .map((f) => f.object)
        .sort(),
    ).toEqual(['GitHub Actions', 'Slack']);
    // The change itself stays as a free-text fact.
    expect(facts(d).map((f) => f.content)).toContain('User no longer uses Jenkins');
  });

  it('"quit my job" (any value) retires the current employer and its identity override', async () => {
    const d = db();
    await store(d, [typed('User works at Deloitte', 'works_at', 'Deloitte')], 1, {
      identity_facts: ['User works at Deloitte'],
    });
    await store(d, [typed('User quit their job', 'works_at', '*', { ended: true })], 2);
    expect(factsByRelation(d, 'a', ['works_at'])).toEqual([]);
    expect(getIdentity(d, 'a').overrides).toEqual([]);
  });

  it('a typed statement of a fact stored as free text types that row', async () => {
    const d = db();
    await store(d, [{ content: 'User lives in Ghent', salience: 0.5, tags: [] }], 1);
    await store(d, [typed('User lives in Ghent', 'lives_in', 'Ghent')], 2);
    expect(facts(d)).toEqual([
      expect.objectContaining({ relation: 'lives_in', object: 'Ghent', source_count: 2 }),
    ]);
  });

  it('an unknown relation leaves the fact free text', async () => {
    const d = db();
    await store(d, [typed('User owns a boat', 'boats', 'boat')], 1);
    expect(facts(d)).toEqual([
      expect.objectContaining({ relation: null, content: 'User owns a boat' }),
    ]);
  });
});

describe('storeDigest: near-duplicate free text', () => {
  it('keeps the more informative text on one row', async () => {
    const d = db();
    const store = (content: string, at: number) => storeAlone(d, content, at);
    await store('User prefers tea', 1);
    await store('User prefers tea over coffee', 2);
    expect(facts(d).map((f) => [f.content, f.source_count])).toEqual([
      ['User prefers tea over coffee', 2],
    ]);
    await store('User prefers tea', 3);
    expect(facts(d).map((f) => [f.content, f.source_count])).toEqual([
      ['User prefers tea over coffee', 3],
    ]);
  });

  it('never merges a statement with its negation', async () => {
    const d = db();
    const store = (content: string, at: number) => storeAlone(d, content, at);
    await store('User is a vegetarian cook', 1);
    await store('User is not a vegetarian cook', 2);
    expect(facts(d)).toHaveLength(2);
  });
});

describe('cosine de-duplication', () => {
  /** A vector index that calls every fact the nearest neighbour with `score`. */
  const nearEverything = (model: string, score: number) =>
    ({
      isReady: () => true,
      activeModel: () => model,
      search: async () => [{ id: 1, score }],
      indexRows: async () => {},
      remove: () => {},
      backfill: async () => 0,
    }) as VectorService;

  it('trusts a sentence model, never static word vectors (they blur green and black tea)', async () => {
    for (const [model, stored] of [
      ['Xenova/all-MiniLM-L6-v2', 1],
      [WORD_VECTORS_MODEL_ID, 2],
    ] as const) {
      const t = tempDatabase();
      try {
        for (const [i, fact] of ['User drinks green tea', 'User drinks black tea'].entries()) {
          await storeDigest({
            db: t.db,
            agentId: 'a',
            conversationId: `c${i}`,
            conversationAt: i,
            digest: digest([fact]),
            now: 10 + i,
            vectors: nearEverything(model, 0.99),
          });
        }
        expect(t.db.prepare('SELECT count(*) FROM pinned_facts').pluck().get(), model).toBe(stored);
      } finally {
        t.cleanup();
      }
    }
  });
});
