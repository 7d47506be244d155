import { describe, expect, it } from 'vitest';
import {
  extractEntities,
  extractFactsFromSentence,
  heuristicDigest,
  splitSpeaker,
} from './heuristic-distiller.ts';

describe('extractFactsFromSentence', () => {
  it.each([
    ['My name is Ada Lovelace.', "User's name is Ada Lovelace", true],
    ["Hi, I'm Ada and I need help with a spreadsheet.", "User's name is Ada", true],
    ['I work at Acme Corp as a consultant.', 'User works at Acme Corp as a consultant', true],
    ['I work as a software engineer.', 'User is a software engineer', true],
    ["I'm a nurse at the city hospital", 'User is a nurse at the city hospital', true],
    ['I live in Berlin, near the river.', 'User lives in Berlin', true],
    ["I'm from Lisbon originally", 'User is from Lisbon originally', true],
    ['I moved to Toronto last year', 'User moved to Toronto last year', true],
    ["I'm 34 years old", 'User is 34 years old', true],
    ['My pronouns are she / her.', "User's pronouns are she/her", true],
    ['My wife is named Maria.', "User's wife is named Maria", false],
    ['My dog is called Rex and he is great', "User's dog is named Rex", false],
    ['I have two kids.', 'User has two kids', false],
    ['I love hiking in the mountains.', 'User loves hiking in the mountains', false],
    ["I really don't like cilantro", "User doesn't like cilantro", false],
    ['I prefer tea over coffee, especially in the morning', 'User prefers tea over coffee', false],
    ["I'm allergic to peanuts", 'User is allergic to peanuts', false],
    ['My favorite band is Radiohead.', "User's favorite band is Radiohead", false],
    [
      'We decided to use Postgres for the backend.',
      'User decided to use Postgres for the backend',
      false,
    ],
    ["I'll go with the blue one.", 'User chose the blue one', false],
    ['I usually go to bed around midnight.', 'User usually goes to bed around midnight', false],
    ['Every morning I run 5k.', 'Every morning, the user runs 5k', false],
    ["I'm planning to learn Japanese next year", 'User plans to learn Japanese next year', false],
    ['My goal is to finish my thesis by June.', 'User plans to finish their thesis by June', false],
  ])('%j → %j', (sentence, expected, identity) => {
    const facts = extractFactsFromSentence(sentence);
    expect(facts.map((f) => f.content)).toContain(expected);
    expect(facts.find((f) => f.content === expected)?.identity).toBe(identity);
  });

  it.each([
    'Do you like jazz?',
    'Would you prefer tea or coffee?',
    'What do I like to eat?',
    'If I lived in Paris, I would love croissants.',
    'Imagine I work at Google.',
    "I'd love to see that!",
    'I love that!',
    'I love it when you explain things.',
    "I'm not sure I like this approach.",
    'My friend said I love drama.',
    'Thanks, that sounds great.',
    "I'm a bit tired today.",
    'I live in hope.',
    'I am happy to help.',
  ])('no fact from %j', (sentence) => {
    expect(extractFactsFromSentence(sentence)).toEqual([]);
  });

  it('uses the speaker as the subject', () => {
    expect(extractFactsFromSentence('I love painting landscapes.', 'Melanie')[0]?.content).toBe(
      'Melanie loves painting landscapes',
    );
  });
});

describe('splitSpeaker', () => {
  it('recognises speaker labels but not ordinary prefixes', () => {
    expect(splitSpeaker('Caroline: I went out')).toEqual({
      speaker: 'Caroline',
      body: 'I went out',
    });
    expect(splitSpeaker('User: hi')).toEqual({ speaker: 'User', body: 'hi' });
    expect(splitSpeaker('Note: this is it').speaker).toBeNull();
    expect(splitSpeaker('no label here').speaker).toBeNull();
  });
});

describe('extractEntities', () => {
  it('keeps names, drops sentence-initial stopwords and greetings', () => {
    const e = extractEntities([
      'Hey Mel! I met Jon Snow in New York.',
      'The trip to New York was fun.',
      'Thanks, Caroline!',
    ]);
    expect(e).toContain('New York');
    expect(e).toContain('Jon Snow');
    expect(e).toContain('Caroline');
    expect(e).toContain('Mel');
    expect(e).not.toContain('The');
    expect(e).not.toContain('Thanks');
    expect(e).not.toContain('Hey');
  });
});

describe('heuristicDigest', () => {
  const at = Date.UTC(2023, 4, 8, 13, 56);
  it('builds an episode, facts and identity facts from a chat', () => {
    const d = heuristicDigest(
      [
        {
          role: 'user',
          content: "Hi! I'm Ada. I work at Acme as a data engineer.",
          created_at: at,
        },
        {
          role: 'assistant',
          content:
            'Nice to meet you, Ada! I love helping with data pipelines. I am an AI assistant.',
          created_at: at,
        },
        {
          role: 'user',
          content:
            'We decided to migrate the warehouse to Snowflake next quarter. I usually review pipelines on Mondays. Can you draft a migration plan?',
          created_at: at,
        },
      ],
      {},
    );
    expect(d.episode.summary).toMatch(/^Conversation on 8 May 2023\./);
    expect(d.episode.summary).toContain('Snowflake');
    expect(d.episode.entities).toContain('Snowflake');
    expect(d.episode.entities).toContain('Acme');
    expect(d.episode.decisions).toEqual([
      'User decided to migrate the warehouse to Snowflake next quarter',
    ]);
    const facts = d.pinned_candidates.map((c) => c.content);
    expect(facts).toEqual(
      expect.arrayContaining([
        "User's name is Ada",
        'User works at Acme as a data engineer',
        'User usually reviews pipelines on Mondays',
      ]),
    );
    // the assistant's statements about itself are not facts about the user
    expect(facts.join(' ')).not.toMatch(/helping|AI assistant/);
    expect(d.identity_facts).toEqual(
      expect.arrayContaining(["User's name is Ada", 'User works at Acme as a data engineer']),
    );
    expect(d.episode.salience).toBeGreaterThan(0);
    expect(d.episode.salience).toBeLessThanOrEqual(1);
  });

  it('handles labelled human speakers on both sides', () => {
    const d = heuristicDigest([
      {
        role: 'user',
        content: 'Caroline: I went to a LGBTQ support group yesterday.',
        created_at: at,
      },
      {
        role: 'assistant',
        content: "Melanie: I'm swamped with the kids. I love painting sunsets.",
        created_at: at,
      },
    ]);
    expect(d.pinned_candidates.map((c) => c.content)).toContain('Melanie loves painting sunsets');
    expect(d.episode.summary).toContain('Caroline: I went to a LGBTQ support group yesterday.');
  });

  it('still produces a valid episode from an empty-ish conversation', () => {
    const d = heuristicDigest([{ role: 'user', content: 'hi', created_at: at }]);
    expect(d.episode.summary.length).toBeGreaterThan(0);
    expect(d.pinned_candidates).toEqual([]);
  });
});
