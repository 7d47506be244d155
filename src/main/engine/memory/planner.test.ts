import { describe, expect, it } from 'vitest';
import { addEpisode, addFact } from '../../../../test/helpers/memory-rows.ts';
import { searchDepsPerTest } from '../../../../test/helpers/search-deps.ts';
import type { Db } from '../store/migrate.ts';
import { putIdentity } from '../store/identity.ts';
import { getPinned, updatePinned } from '../store/pinned.ts';
import { recordTurn } from '../store/transcript.ts';
import { fitBlock, planMemoryBlock } from './planner.ts';
import { countTokens } from './tokens.ts';

const NOW = new Date(2025, 5, 1, 12).getTime();
const setup = searchDepsPerTest(NOW);
const fact = (db: Db, agentId: string, content: string) =>
  addFact(db, { agentId, content, salience: 0.6 }, NOW);

describe('planMemoryBlock', () => {
  it('builds the exact block format with identity overrides and dated conversation lines', async () => {
    const { db, deps } = setup();
    putIdentity(db, 'a', { overrides: ['Name: Sam'] }, NOW);
    const at = new Date(2025, 4, 8, 10).getTime();
    recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [
        { role: 'user', content: 'I adopted a greyhound called Pixel', createdAt: at },
        { role: 'assistant', content: 'Congratulations on adopting Pixel!', createdAt: at },
      ],
    });
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'What exactly did I say about the greyhound?',
      section: 'transcript',
      budgetTokens: 800,
    });
    expect(r.section).toBe('transcript');
    expect(r.block).toBe(
      [
        '[Memory]',
        '## About the user',
        '- Name: Sam',
        '## Conversation excerpts',
        '- [2025-05-08] User: I adopted a greyhound called Pixel',
        '- [2025-05-08] Assistant: Congratulations on adopting Pixel!',
        '[/Memory]',
      ].join('\n'),
    );
    expect(r.tokens).toBe(countTokens(r.block));
  });

  it("puts the user's profile facts closest to a question first when no fact shares its words", async () => {
    const { db, deps } = setup();
    addFact(db, { agentId: 'a', content: 'User works at Maersk', salience: 0.9 }, NOW);
    addFact(db, { agentId: 'a', content: 'User is vegan', salience: 0.8 }, NOW);
    addFact(db, { agentId: 'a', content: 'User goes bouldering', salience: 0.5 }, NOW);
    const factLines = async (rankByMeaning?: (q: string, p: readonly string[]) => number[]) => {
      const r = await planMemoryBlock(deps, {
        agentId: 'a',
        message: 'What do I do for fun?',
        section: 'pinned',
        budgetTokens: 800,
        bumpUsage: false,
        ...(rankByMeaning ? { rankByMeaning } : {}),
      });
      return r.block.split('\n').filter((l) => l.startsWith('- User'));
    };
    // Without word meaning, most salient first.
    expect(await factLines()).toEqual([
      '- User works at Maersk',
      '- User is vegan',
      '- User goes bouldering',
    ]);
    const byMeaning = (_q: string, passages: readonly string[]) =>
      passages.map((p) => (p.includes('bouldering') ? 0.9 : 0.1));
    expect((await factLines(byMeaning))[0]).toBe('- User goes bouldering');
  });

  it('injects nothing when nothing but the date would be in the block', async () => {
    const { deps } = setup();
    for (const section of ['identity', 'pinned', 'episode', 'transcript', 'none'] as const) {
      expect(
        await planMemoryBlock(deps, {
          agentId: 'a',
          message: 'anything',
          section,
          budgetTokens: 800,
        }),
      ).toEqual({ section, block: '', tokens: 0 });
    }
  });

  it('never exceeds the budget, whatever the lines', async () => {
    const { db, deps } = setup();
    putIdentity(db, 'a', { overrides: ['Prefers metric units', 'Lives in Porto'] }, NOW);
    for (let i = 0; i < 60; i++) {
      fact(
        db,
        'a',
        `Coffee fact ${i}: ` + 'likes coffee with oat milk and cinnamon '.repeat(1 + (i % 7)),
      );
    }
    recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: 'user', content: 'coffee '.repeat(3000), createdAt: NOW }],
    });
    for (const budget of [100, 150, 333, 800, 4000]) {
      const r = await planMemoryBlock(deps, {
        agentId: 'a',
        message: 'how do I take my coffee?',
        section: 'pinned',
        budgetTokens: budget,
        bumpUsage: false,
      });
      expect(r.block).not.toBe('');
      expect(countTokens(r.block)).toBeLessThanOrEqual(budget);
      expect(r.tokens).toBeLessThanOrEqual(budget);
      expect(r.block.startsWith('[Memory]\n## ')).toBe(true);
      expect(r.block.endsWith('\n[/Memory]')).toBe(true);
    }
  });

  it('bumps usage of injected facts only when asked, and never shows disabled facts', async () => {
    const { db, deps } = setup();
    const used = fact(db, 'a', 'Allergic to peanuts');
    const off = fact(db, 'a', 'Allergic to shellfish');
    updatePinned(db, 'a', off, { status: 'disabled' }, NOW);
    const preview = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'what am I allergic to?',
      section: 'pinned',
      budgetTokens: 800,
      bumpUsage: false,
    });
    expect(preview.block).toContain('Allergic to peanuts');
    expect(preview.block).not.toContain('shellfish');
    expect(getPinned(db, 'a', used)?.use_count).toBe(0);
    await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'what am I allergic to?',
      section: 'pinned',
      budgetTokens: 800,
    });
    expect(getPinned(db, 'a', used)).toMatchObject({ use_count: 1, last_used: NOW });
    expect(getPinned(db, 'a', off)?.use_count).toBe(0);
  });

  it('identity section lists the narrative and the most salient facts', async () => {
    const { db, deps } = setup();
    putIdentity(db, 'a', { narrative: 'Sam is a nurse in Leeds.', overrides: [] }, NOW);
    fact(db, 'a', 'Works night shifts');
    fact(db, 'b', 'Belongs to another agent');
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'who am I?',
      section: 'identity',
      budgetTokens: 800,
    });
    expect(r.block).toContain('## About the user\n- Sam is a nurse in Leeds.');
    expect(r.block).toContain('## Facts\n- Works night shifts');
    expect(r.block).not.toContain('another agent');
  });
});

describe('block content', () => {
  it('shows a memory once: repeated facts and turns quoted elsewhere in the block are dropped', async () => {
    const { db, deps } = setup();
    putIdentity(db, 'a', { overrides: ["User's name is Ada", 'User works at Acme'] }, NOW);
    fact(db, 'a', "User's name is Ada");
    fact(db, 'a', 'User works at Acme.');
    fact(db, 'a', 'User commutes to Acme by bike');
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'where do I work?',
      section: 'identity',
      budgetTokens: 800,
    });
    expect(r.block.match(/name is Ada/gu)).toHaveLength(1);
    expect(r.block.match(/works at Acme/gu)).toHaveLength(1);
    expect(r.block).toContain('- User commutes to Acme by bike');
  });

  it("the user's earlier questions about themselves are no memory: they state nothing", async () => {
    const { db, deps } = setup();
    const at = new Date(2025, 2, 3, 10).getTime();
    const turn = (conversationId: string, content: string) =>
      recordTurn(db, {
        agentId: 'a',
        conversationId,
        messages: [{ role: 'user', content, createdAt: at }],
      });
    turn('c1', 'Which mate do I do the pub quiz with?');
    turn('c2', 'Rhys and I do the pub quiz at the Anchor every Thursday, give me 10 questions.');
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'Who is my pub quiz partner?',
      section: 'pinned',
      budgetTokens: 800,
    });
    expect(r.block).toContain('Rhys and I do the pub quiz');
    expect(r.block).not.toContain('Which mate');
  });

  it('keeps dates and speakers, and takes "Noted:" for text, not for a speaker', async () => {
    const { db, deps } = setup();
    const at = new Date(2025, 2, 3, 10).getTime();
    recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [
        { role: 'user', content: 'Helena: my sister Ines turns 30 on 14 May', createdAt: at },
        { role: 'assistant', content: 'Noted: Ines, 14 May, a gift for Ines', createdAt: at },
      ],
    });
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'when is the birthday of Ines?',
      section: 'pinned',
      budgetTokens: 800,
      speakers: new Set(['helena']),
    });
    expect(r.block).toContain('- [2025-03-03] Helena: my sister Ines turns 30 on 14 May');
    expect(r.block).toContain('- [2025-03-03] Assistant: Noted: Ines, 14 May, a gift for Ines');
  });
});

describe('episode lines', () => {
  it('show the date once', async () => {
    const { db, deps } = setup();
    const at = new Date(2025, 4, 20, 9).getTime();
    addEpisode(
      db,
      {
        agentId: 'a',
        conversationId: 'c',
        summary: 'Conversation on 20 May 2025. User: I went to Paris for a design conference.',
        topics: ['paris'],
        entities: ['Paris'],
      },
      at,
    );
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'When did I go to Paris?',
      section: 'episode',
      budgetTokens: 800,
    });
    expect(r.block).toContain(
      '## Past conversations\n- [2025-05-20] User: I went to Paris for a design conference.',
    );
  });
});

describe('small budgets', () => {
  it('leave room for conversation lines after the facts', async () => {
    const { db, deps } = setup();
    for (let i = 0; i < 12; i++) {
      fact(
        db,
        'a',
        `Garden note ${i}: the tomatoes along the fence need water every ${i + 2} days`,
      );
    }
    recordTurn(db, {
      agentId: 'a',
      conversationId: 'c',
      messages: [{ role: 'user', content: 'The tomatoes got blight in July', createdAt: NOW }],
    });
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'what happened to my tomatoes?',
      section: 'pinned',
      budgetTokens: 200,
      bumpUsage: false,
    });
    expect(r.block).toContain('## Facts');
    expect(r.block).toContain('User: The tomatoes got blight in July');
    expect(r.tokens).toBeLessThanOrEqual(200);
  });
});

describe('facts about the question', () => {
  it('drops facts that match the question only by the name of a person', async () => {
    const { db, deps } = setup();
    fact(db, 'a', 'Omar loves performing');
    fact(db, 'a', 'Omar is learning a ton');
    fact(db, 'a', 'Omar lost his banking job in January');
    const r = await planMemoryBlock(deps, {
      agentId: 'a',
      message: 'When did Omar lose his job?',
      section: 'pinned',
      budgetTokens: 800,
      speakers: new Set(['omar', 'tamsin']),
    });
    expect(r.block).toContain('- Omar lost his banking job in January');
    expect(r.block).not.toContain('performing');
    expect(r.block).not.toContain('a ton');
  });
});

describe('fitBlock', () => {
  it("returns '' when no line fits", () => {
    expect(fitBlock([{ title: 'Facts', lines: [] }], 800)).toEqual({
      block: '',
      used: [],
      tokens: 0,
      lines: [],
    });
  });

  it('leaves out a line the room left would cut to its first few words', () => {
    const long = `[2025-06-01] User: ${'I planned the whole garden layout with raised beds. '.repeat(8)}`;
    const short = '[2025-06-01] User: We keep bees.';
    // Room for the short line and a little more: the long one, first, would be cut to a stub.
    const onlyShort = fitBlock(
      [{ title: 'Conversation excerpts', lines: [{ text: short, order: 0 }] }],
      800,
    );
    const room = onlyShort.tokens + 4;
    const r = fitBlock(
      [
        {
          title: 'Conversation excerpts',
          lines: [
            { text: long, order: 0 },
            { text: short, order: 1 },
          ],
        },
      ],
      room,
    );
    expect(r.block).not.toContain('I planned');
    expect(r.block).toContain('We keep bees.');
    // With room for a useful part, the line is cut and kept.
    const roomy = fitBlock(
      [{ title: 'Conversation excerpts', lines: [{ text: long, order: 0 }] }],
      80,
    );
    expect(roomy.block).toContain('I planned the whole garden');
  });

  it('stays within every budget for lines of every length and script', () => {
    const samples = [
      'ok',
      'Helena: I went to a climbing gym yesterday and it was so powerful.',
      '日本語のテキストはとても長いです。'.repeat(9),
      'emoji 🔥🎉 and punctuation!!! ??? ... '.repeat(5),
      'x'.repeat(700),
      'word '.repeat(300),
    ];
    const lines = Array.from({ length: 40 }, (_, i) => ({
      text: `${i} ${samples[i % samples.length] as string}`,
      order: i,
    }));
    for (let budget = 100; budget <= 1200; budget += 37) {
      const r = fitBlock(
        [
          { title: 'About the user', lines: lines.slice(0, 3) },
          { title: 'Facts', lines: lines.slice(3, 20) },
          { title: 'Conversation excerpts', lines: lines.slice(20) },
        ],
        budget,
      );
      expect(r.block).not.toBe('');
      expect(r.tokens).toBe(countTokens(r.block));
      expect(r.tokens, `budget ${budget}`).toBeLessThanOrEqual(budget);
    }
  });
});
