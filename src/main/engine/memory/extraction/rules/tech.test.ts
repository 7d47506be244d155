import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import { techUse, toolIn } from './tech.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

const toolsIn = (text: string) => brief(applyRule(toolIn, text, false, words));
const techUses = (text: string) => brief(applyRule(techUse, text, false, words));

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
    // What a team that works in one technology calls itself.
    ["we're a Rails shop", ["User's team is a Rails shop [user|stack|Rails]"]],
    ["We're mostly a Django shop.", ["User's team is a Django shop [user|stack|Django]"]],
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
    "We're a small shop.",
    "They're a Rails shop.",
    "I'm a Rails developer.",
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
    [
      'We keep all our sprint tickets on a Trello board.',
      'User keeps their sprint tickets in Trello [user|tool|Trello]',
    ],
    ['I log my runs in Strava.', 'User keeps their runs in Strava [user|tool|Strava]'],
    ['our docs live in Notion', 'User keeps their docs in Notion [user|tool|Notion]'],
    ['My notes are all in Obsidian.', 'User keeps their notes in Obsidian [user|tool|Obsidian]'],
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
    // where things and people are, not a tool
    'I keep my bike on Main Street.',
    'My flat is in Hackney.',
    'My office is in Canary Wharf.',
    'Our team is in Berlin.',
    'My sister lives in Leeds.',
  ])('nothing from %j', (text) => {
    expect(toolsIn(text)).toEqual([]);
  });
});

describe("the writer's own team", () => {
  it.each([
    ['Our team uses dbt', ["User's team uses dbt [user|tool|dbt]"]],
    ['our squad is on Kubernetes', ["User's squad uses Kubernetes [user|tool|Kubernetes]"]],
    ['We as a team use Jira', ["User's team uses Jira [user|tool|Jira]"]],
    ['our company uses SAP', ["User's company uses SAP [user|tool|SAP]"]],
    [
      'Our data team uses Looker and dbt',
      [
        "User's data team uses Looker [user|tool|Looker]",
        "User's data team uses dbt [user|tool|dbt]",
      ],
    ],
  ])('%j', (text, expected) => {
    expect(techUses(text)).toEqual(expected);
  });

  it('reads what the team makes its work in', () => {
    expect(toolsIn('Our team models everything in dbt on top of Snowflake')).toEqual([
      "User's team uses dbt for everything [user|tool|dbt]",
      "User's team uses Snowflake [user|tool|Snowflake]",
    ]);
  });

  it.each([
    'their team uses Jira',
    "my brother's team uses Java",
    "Our team doesn't use Jira",
    'our team is on holiday',
    'our team is on Monday',
  ])('nothing from %j', (text) => {
    expect([...techUses(text), ...toolsIn(text)]).toEqual([]);
  });

  it('is no longer kept in a tool', () => {
    expect(toolsIn('our squad is on Kubernetes')).toEqual([]);
  });
});

describe('tools a lower-case writer names', () => {
  it.each([
    ['i use excel for my budget', ['User uses excel [user|tool|excel]']],
    ['we use python for the backend', ['User uses python [user|stack|python]']],
    // a word the vectors do not know, where only software goes
    ['our ci is on github actions', ['User uses github actions (ci) [user|stack|github actions]']],
    ['we use dbt for our data pipeline', ['User uses dbt [user|stack|dbt]']],
  ])('%j', (text, expected) => {
    expect(techUses(text)).toEqual(expected);
  });

  it('reads a tool work is done in', () => {
    expect(toolsIn('i do everything in excel')).toEqual([
      'User uses excel for everything [user|tool|excel]',
    ]);
  });

  it.each([
    // everyday things by meaning, plurals, kinds of thing, no tool at all
    'i use chopsticks',
    'i use inhalers',
    'we use templates',
    'i use the internet',
    'we use cloth nappies',
    'I do everything in bed',
    // a word nobody knows, where anything may go
    'i use retinol every night',
    'i use ozempic now',
  ])('nothing from %j', (text) => {
    expect([...techUses(text), ...toolsIn(text)]).toEqual([]);
  });
});

describe('tools in the engine', () => {
  it.each(['Are our docs in Notion?', 'If we kept our tickets on a Trello board, would it help?'])(
    'nothing from %j',
    (text) => {
      expect(
        extractFacts(text, { at: SAID_AT, words }).filter((f) => f.relation === 'tool'),
      ).toEqual([]);
    },
  );
});
