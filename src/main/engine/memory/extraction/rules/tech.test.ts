import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { clausesOf } from '../clause.ts';
import { analyse } from '../nlp.ts';
import { techUse, toolIn } from './tech.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

const toolsIn = (text: string) =>
  brief(
    analyse(text)
      .flatMap((s) => clausesOf(s))
      .flatMap((c) => toolIn(c, { at: SAID_AT, greeted: false, words })),
  );

describe('techUse', () => {
  it.each([
    [
      'We use Postgres and React for the backend and frontend.',
      ['User uses Postgres [user|stack|Postgres]', 'User uses React [user|stack|React]'],
    ],
    ['I code in Rust on weekends.', ['User codes in Rust [user|stack|Rust]']],
    ['I use Obsidian for my notes.', ['User uses Obsidian [user|tool|Obsidian]']],
    [
      'Our stack is Go and Kafka.',
      ['User uses Go (stack) [user|stack|Go]', 'User uses Kafka (stack) [user|stack|Kafka]'],
    ],
    [
      'Our stack is mostly Python and Django.',
      [
        'User uses Python (stack) [user|stack|Python]',
        'User uses Django (stack) [user|stack|Django]',
      ],
    ],
    // "with" adds to the list; a second part after a comma keeps the possessive.
    [
      'our backend is all Go with Postgres, frontend is Svelte.',
      [
        'User uses Go (backend) [user|stack|Go]',
        'User uses Postgres (backend) [user|stack|Postgres]',
        'User uses Svelte (frontend) [user|stack|Svelte]',
      ],
    ],
    // What a part of their software runs on or is made with.
    [
      'Our backend runs on Django and Postgres.',
      [
        'User uses Django (backend) [user|stack|Django]',
        'User uses Postgres (backend) [user|stack|Postgres]',
      ],
    ],
    ['Our API is built with FastAPI.', ['User uses FastAPI (API) [user|stack|FastAPI]']],
    ['my website runs on WordPress', ['User uses WordPress (website) [user|stack|WordPress]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(techUse, sentence))).toEqual(expected);
  });

  it.each([
    'I use a knife to open it.',
    "We don't use Slack.",
    'They use Jira.',
    'The frontend is Svelte.',
    'Their backend is Java.',
    'Their API is built with Rails.',
    'Our app was built by a contractor.',
    'Our office is in Leeds.',
  ])('nothing from %j', (s) => {
    expect(applyRule(techUse, s)).toEqual([]);
  });
});

describe('toolIn', () => {
  it.each([
    [
      'doing all my wireframes in Figma these days but one file is laggy',
      'User uses Figma for wireframes [user|tool|Figma]',
    ],
    ['I track my budget in YNAB.', 'User uses YNAB for budget [user|tool|YNAB]'],
    ["I'm in Power BI all day.", 'User works in Power BI all day [user|tool|Power BI]'],
  ])('%j', (text, expected) => {
    expect(toolsIn(text)).toEqual([expected]);
  });

  it.each([
    // places, by meaning
    "I'm in Leeds all day.",
    'I did my degree in Glasgow.',
    // no time at work
    "I'm in Tesco.",
    // someone else, or not done
    'She does her wireframes in Figma.',
    "I don't do my wireframes in Figma.",
    'I do the dishes in March.',
  ])('nothing from %j', (text) => {
    expect(toolsIn(text)).toEqual([]);
  });
});
