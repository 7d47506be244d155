// The relevance gate on the prompt fixtures (test/fixtures/prompts/, also used by
// `npm run bench -- locomo`): general requests get no memory even when the agent's memory
// knows names that are everyday words of such requests (Python, React, Paris...), and
// questions about the user's own life, past, preferences and people always get some.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classifyHeuristic,
  type GateContext,
  wordVectorSenses,
} from '../src/main/engine/memory/gate.ts';
import { gateContextFrom } from '../src/main/engine/memory/memory-reader.ts';
import { loadWordVectors } from '../src/main/engine/vector/word-vectors.ts';
import { ensureWordVectorAsset } from './helpers/word-vectors.ts';

const dir = join(import.meta.dirname, 'fixtures', 'prompts');
const load = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as string[];
const unrelated = load('unrelated.json');
const memoryQuestions = load('memory-questions.json');

/** What a busy agent's memory yields: a labelled chat log, entities, facts, identity. */
const labelled = gateContextFrom({
  transcriptHeads: ['Lidia: hi', 'Tobias: hey', 'Lidia: guess what', 'Tobias: what?'],
  episodeEntities: [
    'Python',
    'React',
    'Java',
    'Docker',
    'Paris',
    'Berlin',
    'Lisbon',
    'Tokyo',
    'Canada',
    'Iceland',
    'Japan',
    'Rome',
    'Chicago',
    'Spanish',
    'Einstein',
    'Harry Potter',
    'New York',
    'Acme',
  ],
  facts: [
    'User loves Python',
    "User's wife is named Maria",
    'User has a dog named Pepper',
    'User decided to use Postgres for the database',
  ],
  identity: ["User's name is Ada", 'User works at Acme'],
});
/** A plain user/assistant chat: no speaker labels at all. */
const plain = gateContextFrom({
  transcriptHeads: ['I live in Lisbon with my wife', 'Translate this: hello', 'Sure!'],
  episodeEntities: ['Lisbon', 'Python', 'Paris', 'Lumen Labs'],
  facts: ['User lives in Lisbon', "User's sister is named Ines"],
  identity: ["User's name is Nora"],
});

/**
 * The same memory as the gate hears it once the word vectors are loaded (the first seconds
 * after start aside): with relations and meaning by word vectors.
 */
const words = loadWordVectors(await ensureWordVectorAsset());
const withWordVectors = (ctx: GateContext): GateContext => ({ ...ctx, ...wordVectorSenses(words) });

describe('gate on the prompt fixtures', () => {
  it('has a wide unrelated set', () => {
    expect(new Set(unrelated).size).toBeGreaterThanOrEqual(150);
    expect(memoryQuestions.length).toBeGreaterThanOrEqual(40);
  });

  it.each([
    ['labelled chat log', labelled],
    ['plain chat', plain],
    ['labelled chat log, word vectors loaded', withWordVectors(labelled)],
    ['plain chat, word vectors loaded', withWordVectors(plain)],
  ])('injects nothing for unrelated prompts (%s)', (_, ctx) => {
    const wrong = unrelated
      .map((p) => [p.slice(0, 80), classifyHeuristic(p, ctx)] as const)
      .filter(([, s]) => s !== 'none');
    expect(wrong).toEqual([]);
  });

  it.each([
    ['labelled chat log', labelled],
    ['plain chat', plain],
    ['labelled chat log, word vectors loaded', withWordVectors(labelled)],
    ['plain chat, word vectors loaded', withWordVectors(plain)],
  ])('chooses a section for every question about the user (%s)', (_, ctx) => {
    const missed = memoryQuestions.filter((q) => classifyHeuristic(q, ctx) === 'none');
    expect(missed).toEqual([]);
  });

  it('capitals after an article name a thing, not someone to know', () => {
    const ctx = gateContextFrom({
      transcriptHeads: [],
      episodeEntities: [],
      facts: [
        'Mel has a Horse Painting',
        "User's manager is Priya Raman",
        'User lives in New York',
      ],
      identity: [],
    });
    expect(ctx.knownNames.has('painting')).toBe(false);
    expect(ctx.knownNames.has('horse')).toBe(false);
    expect(ctx.knownNames.has('priya')).toBe(true);
    expect(ctx.knownNames.has('new york')).toBe(true);
    expect(
      classifyHeuristic(
        "we're thinking of painting our living room, does eggshell or matte finish hold up better?",
        ctx,
      ),
    ).toBe('none');
  });

  it('capitals before a number label it, and are no name to listen for', () => {
    const ctx = gateContextFrom({
      transcriptHeads: [],
      episodeEntities: [],
      facts: ['User teaches Year 5 at Hollins Park Primary', 'User has a tortoise named Gideon'],
      identity: [],
    });
    expect(ctx.knownNames.has('year')).toBe(false);
    expect(ctx.knownNames.has('gideon')).toBe(true);
    expect(
      classifyHeuristic(
        "I earned £31,500 last year and got a 4% raise. What's my new salary, and what's that per month before tax?",
        ctx,
      ),
    ).toBe('none');
  });

  it('the names of grandparents, grandchildren and godchildren are people', () => {
    const ctx = gateContextFrom({
      transcriptHeads: [],
      episodeEntities: [],
      facts: ["User's nan is Joan", "User's grandson is Leo", "User's goddaughter is Maeve"],
      identity: [],
    });
    for (const name of ['joan', 'leo', 'maeve']) expect(ctx.people?.has(name)).toBe(true);
    expect(classifyHeuristic('Write a birthday poem for Joan', ctx)).toBe('pinned');
  });

  it('names of people count alone, other names only in a question about the user', () => {
    expect(classifyHeuristic('How is Maria doing?', labelled)).toBe('pinned');
    expect(classifyHeuristic("What is Pepper's favourite toy?", labelled)).toBe('pinned');
    expect(classifyHeuristic('What did Lidia say about the movie?', labelled)).toBe('pinned');
    expect(classifyHeuristic('Write a birthday poem for Maria', labelled)).toBe('pinned');
    expect(classifyHeuristic('Explain decorators in Python', labelled)).toBe('none');
    expect(classifyHeuristic('Is Python good for data science?', labelled)).toBe('none');
    expect(classifyHeuristic('Which Python libraries did I use for the scraper?', labelled)).toBe(
      'pinned',
    );
    expect(classifyHeuristic('What are the best museums in Paris?', labelled)).toBe('none');
    expect(classifyHeuristic('Where did we stay in Paris?', labelled)).not.toBe('none');
  });

  it('dates and "when did" need the user or a known person', () => {
    expect(classifyHeuristic('When did the Berlin Wall fall?', labelled)).toBe('none');
    expect(classifyHeuristic('What happened in March 1945?', labelled)).toBe('none');
    expect(classifyHeuristic('When did Tobias adopt the turtles?', labelled)).toBe('episode');
    expect(classifyHeuristic('What did I do in March?', labelled)).toBe('episode');
  });

  it('does not take a one-off "Label:" line for a speaker', () => {
    expect(plain.people?.has('translate')).toBe(false);
    expect(classifyHeuristic('Translate this to Spanish: good morning', plain)).toBe('none');
  });
});
