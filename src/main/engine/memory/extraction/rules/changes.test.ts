import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import type { Rule } from '../fact.ts';
import { deviceIs, leftFor, switched } from './changes.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** A rule with word meaning loaded, over every clause of a sentence. */
const withMeaning = (rule: Rule, text: string) => brief(applyRule(rule, text, false, words));

describe('switched', () => {
  it.each([
    ['I switched to green tea.', ['User drinks green tea [user|drink|green tea]']],
    [
      'I switched from VS Code to Neovim.',
      [
        'User uses Neovim (switched from VS Code) [user|tool|Neovim]',
        'User no longer uses VS Code [user|tool|VS Code|ended]',
      ],
    ],
    [
      'We migrated from MySQL to Postgres last year.',
      [
        'User uses Postgres (switched from MySQL) [user|tool|Postgres]',
        'User no longer uses MySQL [user|tool|MySQL|ended]',
      ],
    ],
    [
      'I replaced my car with an e-bike.',
      [
        'User has e-bike (switched from their car) [user|vehicle|e-bike]',
        'User no longer has their car [user|vehicle|their car|ended]',
      ],
    ],
    [
      'We dropped Slack for Microsoft Teams last month.',
      [
        'User uses Microsoft Teams (switched from Slack) [user|tool|Microsoft Teams]',
        'User no longer uses Slack [user|tool|Slack|ended]',
      ],
    ],
    [
      "We used to deploy with Jenkins but we've moved everything to GitHub Actions now.",
      ['User uses GitHub Actions [user|tool|GitHub Actions]'],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(switched, sentence))).toEqual(expected);
  });

  it.each([
    'I dropped the class for a week.',
    'I moved everything to the attic.',
    'I switched off the lights.',
    "I'll switch to decaf soon.",
    'I went to Paris.',
    'I moved to Lisbon.',
  ])('nothing from %j', (s) => {
    expect(applyRule(switched, s)).toEqual([]);
  });
});

describe('switched: devices', () => {
  it.each([
    [
      'I switched from Android to an iPhone.',
      [
        "User no longer uses Android [user's phone|tool|*|ended]",
        'User no longer uses Android [user|tool|Android|ended]',
        "User's phone is an iPhone (switched from Android) [user's phone|tool|iPhone]",
      ],
    ],
    [
      'I ditched my old phone for a Pixel 8.',
      [
        "User replaced their phone [user's phone|tool|*|ended]",
        "User's phone is a Pixel 8 [user's phone|tool|Pixel 8]",
      ],
    ],
    // One side a device by meaning is not enough ("iPad" sits among phones).
    [
      'I ditched my Kindle for an iPad.',
      [
        'User uses iPad (switched from their Kindle) [user|tool|iPad]',
        'User no longer uses their Kindle [user|tool|their Kindle|ended]',
      ],
    ],
  ])('%j', (sentence, expected) => {
    expect(withMeaning(switched, sentence)).toEqual(expected);
  });
});

describe('leftFor', () => {
  it.each([
    [
      "fyi we moved off Trello last month, the whole team's on Asana now.",
      [
        'User uses Asana (switched from Trello) [user|tool|Asana]',
        'User no longer uses Trello [user|tool|Trello|ended]',
      ],
    ],
    [
      "We've ditched Jira, everyone's on Linear now.",
      [
        'User uses Linear (switched from Jira) [user|tool|Linear]',
        'User no longer uses Jira [user|tool|Jira|ended]',
      ],
    ],
    [
      'we moved off Trello onto Asana',
      [
        'User uses Asana (switched from Trello) [user|tool|Asana]',
        'User no longer uses Trello [user|tool|Trello|ended]',
      ],
    ],
    [
      'We gave up on Basecamp and went with Notion.',
      [
        'User uses Notion (switched from Basecamp) [user|tool|Notion]',
        'User no longer uses Basecamp [user|tool|Basecamp|ended]',
      ],
    ],
    [
      'Gave up on Android and picked up an iPhone 15 last week.',
      [
        "User no longer uses Android [user's phone|tool|*|ended]",
        'User no longer uses Android [user|tool|Android|ended]',
        "User's phone is an iPhone 15 (switched from Android) [user's phone|tool|iPhone 15]",
      ],
    ],
    // Nothing named instead: a name left by a verb that only leaves tools, or a typed thing.
    ["we've moved off Jira", ['User no longer uses Jira [user|tool|Jira|ended]']],
    ['I gave up coffee.', ['User no longer drinks coffee [user|drink|coffee|ended]']],
    // Someone else's change is theirs.
    [
      'My sister gave up on Android and got an iPhone.',
      [
        "User's sister uses iPhone (switched from Android) [user's sister|tool|iPhone]",
        "User's sister no longer uses Android [user's sister|tool|Android|ended]",
      ],
    ],
  ])('%j', (sentence, expected) => {
    expect(withMeaning(leftFor, sentence)).toEqual(expected);
  });

  it.each([
    // a place or a person left is not a tool
    'I gave up on London and moved to Leeds.',
    'I gave up on Tom.',
    // "dropped" alone says nothing of tools ("dropped Spanish")
    'I dropped Spanish.',
    "We didn't move off Trello.",
    "We can't move off Trello.",
    'Tom moved off Trello.',
    'I moved off campus.',
    // read by switched
    'We dropped Slack for Microsoft Teams.',
  ])('nothing from %j', (sentence) => {
    expect(withMeaning(leftFor, sentence)).toEqual([]);
  });

  it.each([
    'did you move off Trello?',
    'if we moved off Trello onto Asana, would the boards survive?',
    'If we moved to Asana we would lose the history.',
    'Tom said they moved off Trello onto Asana.',
  ])('nothing from the question, supposition or report %j', (sentence) => {
    const facts = extractFacts(sentence, { at: SAID_AT, words });
    expect(facts.filter((f) => f.relation === 'tool')).toEqual([]);
  });

  it('a question later in the sentence names no replacement', () => {
    expect(withMeaning(leftFor, 'we moved off Trello, should we use Asana?')).toEqual([
      'User no longer uses Trello [user|tool|Trello|ended]',
    ]);
  });

  it('is dated by the clause and ends the old value before the new one is stored', () => {
    const facts = extractFacts('Gave up on Android and picked up an iPhone 15 last week.', {
      at: SAID_AT,
      words,
    });
    expect(facts.map((f) => [f.subject, f.object, f.ended])).toEqual([
      ["user's phone", '*', true],
      ['user', 'Android', true],
      ["user's phone", 'iPhone 15', false],
    ]);
    expect(facts[2]!.validFrom).toBeLessThan(SAID_AT);
  });
});

describe('deviceIs', () => {
  it.each([
    [
      "My phone's a Pixel 6, I've had it for ages.",
      ["User's phone is a Pixel 6 [user's phone|tool|Pixel 6]"],
    ],
    [
      'my laptop is a ThinkPad X1',
      ["User's laptop is a ThinkPad X1 [user's laptop|tool|ThinkPad X1]"],
    ],
    [
      'My new phone is a Galaxy S24.',
      [
        "User replaced their phone [user's phone|tool|*|ended]",
        "User's phone is a Galaxy S24 [user's phone|tool|Galaxy S24]",
      ],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(deviceIs, sentence))).toEqual(expected);
  });

  it.each([
    'My phone is a mess.',
    'My phone is dead.',
    "My phone isn't a Pixel.",
    'My sister is a Leo.',
    'My car is a Tesla.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(deviceIs, sentence)).toEqual([]);
  });

  it('a later change of phone retires the phone stated before (same subject and relation)', () => {
    const before = extractFacts("My phone's a Pixel 6, I've had it for ages.", {
      at: SAID_AT,
      words,
    });
    const after = extractFacts('Gave up on Android and picked up an iPhone 15 last week.', {
      at: SAID_AT,
      words,
    });
    const phone = before.find((f) => f.object === 'Pixel 6')!;
    const retire = after.find((f) => f.ended && f.object === '*')!;
    expect([retire.subject, retire.relation]).toEqual([phone.subject, phone.relation]);
  });
});
