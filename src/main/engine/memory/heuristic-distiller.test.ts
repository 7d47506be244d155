import { describe, expect, it } from 'vitest';
import { ensureWordVectorAsset } from '../../../../test/helpers/word-vectors.ts';
import { Digest } from '../../../shared/digest.ts';
import { loadWordVectors } from '../vector/word-vectors.ts';
import {
  extractEntities,
  heuristicDigest,
  heuristicDigestInSlices,
  splitSpeaker,
} from './heuristic-distiller.ts';

describe('splitSpeaker', () => {
  it('recognises a person named as the speaker, not ordinary prefixes', () => {
    expect(splitSpeaker('Rosa: I went out')).toEqual({ speaker: 'Rosa', body: 'I went out' });
    expect(splitSpeaker('User: hi')).toEqual({ speaker: 'User', body: 'hi' });
    expect(splitSpeaker('Note: this is it').speaker).toBeNull();
    expect(splitSpeaker('Assistant: sure').speaker).toBeNull();
    expect(splitSpeaker('no label here').speaker).toBeNull();
  });
});

describe('extractEntities', () => {
  it('keeps names, drops sentence-initial stopwords and greetings', () => {
    const e = extractEntities([
      'Hey Jo! I met Ada Park in New York.',
      'The trip to New York was fun.',
      'Thanks, Ruth!',
    ]);
    expect(e).toEqual(expect.arrayContaining(['New York', 'Ada Park', 'Ruth', 'Jo']));
    expect(e).not.toContain('The');
    expect(e).not.toContain('Thanks');
    expect(e).not.toContain('Hey');
  });

  it('no template slots, and a capital after a colon starts a sentence', () => {
    const e = extractEntities([
      'Subject: Return of tenancy deposit',
      'Dear [Agent], I vacated [address] on [date].',
      'Regards, [Name]',
      'It is protected under [scheme name], says Ruth.',
    ]);
    expect(e).toEqual(['Ruth']);
  });
});

describe('heuristicDigest', () => {
  const at = Date.UTC(2024, 4, 2, 13, 56);

  it('builds an episode, typed facts with provenance and identity facts from a chat', () => {
    const d = heuristicDigest([
      {
        id: 11,
        role: 'user',
        content: "Hi! I'm Ada. I moved to Lisbon in March and I work at Acme as a data engineer.",
        created_at: at,
      },
      {
        id: 12,
        role: 'assistant',
        content: 'Nice to meet you, Ada! I love helping with data pipelines. I am an AI assistant.',
        created_at: at,
      },
      {
        id: 13,
        role: 'user',
        content:
          'We decided to migrate the warehouse to Snowflake. I usually review pipelines on Mondays. Can you draft a migration plan?',
        created_at: at,
      },
    ]);
    expect(Digest.safeParse(d).success).toBe(true);
    expect(d.episode.summary).toMatch(/^Conversation on 2 May 2024\./);
    expect(d.episode.summary).toContain('Snowflake');
    expect(d.episode.entities).toEqual(expect.arrayContaining(['Snowflake', 'Acme']));
    expect(d.episode.decisions).toEqual(['User decided to migrate the warehouse to Snowflake']);
    const lisbon = d.pinned_candidates.find((c) => c.relation === 'lives_in');
    expect(lisbon).toMatchObject({
      content: 'User moved to Lisbon (March 2024)',
      subject: 'user',
      object: 'Lisbon',
      valid_from: '2024-03-01T00:00:00.000Z',
      source_ids: [11],
    });
    const contents = d.pinned_candidates.map((c) => c.content);
    expect(contents).toEqual(
      expect.arrayContaining([
        "User's name is Ada",
        'User is a data engineer',
        'User works at Acme',
        'User usually reviews pipelines on Mondays',
      ]),
    );
    // the assistant's statements about itself are not facts about the user
    expect(contents.join(' ')).not.toMatch(/helping|AI assistant/);
    expect(d.identity_facts).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User moved to Lisbon (March 2024)']),
    );
    expect(d.episode.salience).toBeGreaterThan(0);
    expect(d.episode.salience).toBeLessThanOrEqual(1);
  });

  it('a fact said twice is one candidate with both source rows', () => {
    const d = heuristicDigest([
      { id: 1, role: 'user', content: 'I play the cello.', created_at: at },
      { id: 2, role: 'user', content: 'Like I said, I play the cello.', created_at: at },
    ]);
    expect(d.pinned_candidates.filter((c) => c.relation === 'instrument')).toEqual([
      expect.objectContaining({ object: 'cello', source_ids: [1, 2] }),
    ]);
  });

  it("cuts an assistant's reply into sentences for the summary, without reading facts from it", () => {
    const d = heuristicDigest([
      {
        role: 'user',
        content: 'How should I structure the migration script for Postgres?',
        created_at: at,
      },
      {
        role: 'assistant',
        content:
          'Split the migration script into small steps. Wrap each step of the Postgres migration in a transaction! I live in Paris, by the way.',
        created_at: at,
      },
    ]);
    expect(d.pinned_candidates).toEqual([]);
    const summary = d.episode.summary;
    // Whole sentences, never a piece of one.
    for (const part of [
      'Split the migration script into small steps.',
      'Wrap each step of the Postgres migration in a transaction!',
    ]) {
      if (summary.includes(part.slice(0, 20))) expect(summary).toContain(part);
    }
    expect(summary).not.toMatch(/steps\. Wrap/u);
  });

  it('attributes labelled speakers on both sides to themselves', () => {
    const d = heuristicDigest([
      { role: 'user', content: 'Rosa: I went to a pottery class yesterday.', created_at: at },
      {
        role: 'assistant',
        content: "Omar: I'm swamped at work. I play the trumpet in a band.",
        created_at: at,
      },
    ]);
    expect(d.pinned_candidates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ content: 'Omar plays the trumpet', subject: 'omar' }),
      ]),
    );
    expect(d.identity_facts).toEqual([]);
    expect(d.episode.summary).toContain('Rosa: I went to a pottery class yesterday.');
  });

  it('with the word vectors, a statement of where the user keeps things becomes a fact; never from the assistant', async () => {
    const words = loadWordVectors(await ensureWordVectorAsset());
    const messages = [
      {
        id: 7,
        role: 'user',
        content: 'I keep my recipes in Notion. How do I add tags?',
        created_at: at,
      },
      { id: 8, role: 'assistant', content: 'I keep my notes in Obsidian myself.', created_at: at },
    ];
    const d = heuristicDigest(messages, { words });
    expect(d.pinned_candidates.map((c) => [c.content, c.object, c.source_ids])).toEqual([
      ['User keeps their recipes in Notion', 'Notion', [7]],
    ]);
    // Until the vectors load, the rules that need word meaning are skipped.
    expect(heuristicDigest(messages).pinned_candidates).toEqual([]);
  });

  it('still produces a valid episode from an empty-ish conversation', () => {
    const d = heuristicDigest([{ role: 'user', content: 'hi', created_at: at }]);
    expect(d.episode.summary.length).toBeGreaterThan(0);
    expect(d.pinned_candidates).toEqual([]);
  });
});

describe('heuristicDigestInSlices', () => {
  const conversation = Array.from({ length: 60 }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content:
      i % 2 === 0
        ? `My sister Dana moved to Lisbon in March and I adopted a beagle named Rufus (${i}).`
        : 'Noted, thanks.',
    created_at: Date.UTC(2026, 2, 1) + i * 60_000,
  }));

  it('gives the same digest as heuristicDigest, pausing between slices of a long conversation', async () => {
    let pauses = 0;
    const pause = async () => {
      pauses++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    };
    // A 0 ms slice: a pause after every message.
    const sliced = await heuristicDigestInSlices(conversation, {}, pause, 0);
    expect(sliced).toEqual(heuristicDigest(conversation));
    expect(pauses).toBe(conversation.length);
  });

  it('does not pause while a slice lasts', async () => {
    let pauses = 0;
    const digest = await heuristicDigestInSlices(
      conversation,
      {},
      async () => void pauses++,
      60_000,
    );
    expect(pauses).toBe(0);
    expect(digest.pinned_candidates.length).toBeGreaterThan(0);
  });
});
