import { afterEach, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import type { Digest } from '../../../shared/digest.ts';
import { getIdentity } from '../store/identity.ts';
import { listEpisodes } from '../store/episodes.ts';
import { listPinned } from '../store/pinned.ts';
import { identityKey, jaccard, storeDigest, wordSet } from './facts.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function db() {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  return t.db;
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
    const r1 = await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c',
      conversationAt: 1,
      digest: digest(['User has a cat']),
      now: 1,
    });
    const r2 = await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c',
      conversationAt: 1,
      digest: digest(['User has a dog']),
      now: 2,
    });
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
    ['Caroline is 34 years old', 'caroline|age'],
    ['User likes tea', null],
  ])('%j → %j', (fact, key) => {
    expect(identityKey(fact)).toBe(key);
  });

  it('does not count a re-distilled conversation as a new source', async () => {
    const d = db();
    const r1 = await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c',
      conversationAt: 1,
      digest: digest(['User likes jazz']),
      now: 1,
    });
    const r2 = await storeDigest({
      db: d,
      agentId: 'a',
      conversationId: 'c',
      conversationAt: 1,
      digest: digest(['User likes jazz', 'User plays piano']),
      now: 2,
    });
    expect(r2.factsBumped).toEqual([]);
    expect(r2.factsAdded).toHaveLength(1);
    expect(facts(d).find((f) => f.id === r1.factsAdded[0])!.source_count).toBe(1);
  });
});
