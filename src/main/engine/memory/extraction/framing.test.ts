import { describe, expect, it } from 'vitest';
import { SAID_AT } from '../../../../../test/helpers/extraction.ts';
import { extractFacts } from './extract.ts';
import { framesOf, mostlyQuoted } from './framing.ts';
import { analyse } from './nlp.ts';

const facts = (text: string) => extractFacts(text, { at: SAID_AT }).map((f) => f.text);

describe('framesOf: quoted words', () => {
  it('marks what stands between a pair of quotation marks, across sentences', () => {
    const sentences = analyse("Translate this: 'I live in Oslo. I have a dog.' Thanks");
    const frames = framesOf(sentences);
    const quotedWords = sentences.flatMap((s, i) =>
      s.toks.filter((t, k) => frames[i]!.quoted[k] && t.pos !== 'PUNCT').map((t) => t.text),
    );
    expect(quotedWords).toEqual(['I', 'live', 'in', 'Oslo', 'I', 'have', 'a', 'dog']);
  });

  it('leaves alone a quotation mark that has no pair (an apostrophe after a plural)', () => {
    const [s] = analyse("My parents' house is in Leeds.");
    const [frame] = framesOf([s!]);
    expect(mostlyQuoted(frame!, s!, s!.toks)).toBe(false);
  });

  it('a word in scare quotes does not make its clause quoted', () => {
    const [s] = analyse('I work at a "startup" in Berlin.');
    const [frame] = framesOf([s!]);
    expect(mostlyQuoted(frame!, s!, s!.toks)).toBe(false);
  });
});

describe('extractFacts: framed words are nobody’s facts', () => {
  it.each([
    "Translate into French: 'My name is Pierre and I live in Marseille with my two cats.'",
    'Proofread this for me: "I have been a nurse for ten years and I speak Spanish."',
    "let's roleplay: you're a pirate captain and I'm a new crew member named Finn. go!",
    'Can we do a role-play? I am a teacher in Leeds and you are a parent.',
    "Let's pretend I'm a pilot who lives in Rome.",
  ])('nothing from %j', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it.each([
    ['My sister texted "I moved to Rome" and I live in Oslo.', ['User lives in Oslo']],
    ['I work at Google and we call it "agile".', ['User works at Google']],
    ["My parents' house is big. I live in Leeds.", ['User lives in Leeds']],
  ])('the writer’s own words around quotes still count: %j', (text, expected) => {
    expect(facts(text)).toEqual(expected);
  });
});
