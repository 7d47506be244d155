import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { clausesOf } from '../clause.ts';
import type { Rule } from '../fact.ts';
import { analyse } from '../nlp.ts';
import { extractFacts } from '../extract.ts';
import {
  dislikes,
  favorite,
  gerund,
  hobby,
  hobbyByFrequency,
  instrument,
  learning,
  likes,
  speaks,
  startedActivity,
} from './interests.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** A rule that needs word meaning, over every clause of a text. */
const withMeaning = (rule: Rule, text: string) =>
  brief(
    analyse(text)
      .flatMap((s) => clausesOf(s))
      .flatMap((c) => rule(c, { at: SAID_AT, greeted: false, words })),
  );

describe('likes', () => {
  it.each([
    ['I love Thai food.', 'User loves Thai food [user|likes|Thai food]'],
    ['I prefer tea over coffee.', 'User prefers tea over coffee [user|likes|tea]'],
    ["I'm a big fan of jazz.", 'User is a fan of jazz [user|likes|jazz]'],
    [
      'I really enjoy hiking in the mountains.',
      'User enjoys hiking in the mountains [user|hobby|hiking in the mountains]',
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(likes, sentence))).toEqual([expected]);
  });

  it.each([
    'I love that!',
    'I love it when you explain things.',
    "I don't like olives.",
    // A person liked is not a taste (a pet or an animal still is: "I like cats").
    'make it a bit warmer, I really liked the hiring manager',
    'I love my sister.',
  ])('nothing from %j', (s) => {
    expect(applyRule(likes, s)).toEqual([]);
  });

  it('an animal liked is a taste', () => {
    expect(brief(applyRule(likes, 'I like cats.'))).toEqual(['User likes cats [user|likes|cats]']);
  });
});

describe('dislikes', () => {
  it.each([
    ['I hate mushrooms.', 'User hates mushrooms [user|dislikes|mushrooms]'],
    [
      "I really don't like horror movies.",
      "User doesn't like horror movies [user|dislikes|horror movies]",
    ],
    [
      "I can't stand country music.",
      "User can't stand country music [user|dislikes|country music]",
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(dislikes, sentence))).toEqual([expected]);
  });

  it.each(['I like olives.', 'I hate it when that happens.'])('nothing from %j', (s) => {
    expect(applyRule(dislikes, s)).toEqual([]);
  });
});

describe('favorite', () => {
  it('reads "my favorite X is Y"', () => {
    expect(brief(applyRule(favorite, 'My favourite band is Khruangbin.'))).toEqual([
      "User's favorite band is Khruangbin [user|likes|Khruangbin]",
    ]);
  });
  it('needs a favorite', () => {
    expect(applyRule(favorite, 'My band is playing tonight.')).toEqual([]);
  });
});

describe('hobby', () => {
  it.each([
    [
      'My hobbies are knitting and bouldering.',
      [
        'User enjoys knitting [user|hobby|knitting]',
        'User enjoys bouldering [user|hobby|bouldering]',
      ],
    ],
    ['I go climbing on weekends.', ['User goes climbing [user|hobby|climbing]']],
    ['I play tennis with my cousin.', ['User plays tennis [user|hobby|tennis]']],
    ['I do yoga most mornings.', ['User does yoga [user|hobby|yoga]']],
    ['I do a bit of pottery.', ['User does pottery [user|hobby|pottery]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(hobby, sentence))).toEqual(expected);
  });

  it.each(['I play the piano.', 'I go to work by bus.', 'I do it all the time.'])(
    'nothing from %j',
    (s) => {
      expect(applyRule(hobby, s)).toEqual([]);
    },
  );
});

describe('instrument', () => {
  it.each([
    [
      'I play the piano and the guitar.',
      [
        'User plays the piano [user|instrument|piano]',
        'User plays the guitar [user|instrument|guitar]',
      ],
    ],
    [
      'My husband plays cello.',
      ["User's husband plays the cello [user's husband|instrument|cello]"],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(instrument, sentence))).toEqual(expected);
  });

  it.each(['I play chess.', "I don't play the drums."])('nothing from %j', (s) => {
    expect(applyRule(instrument, s)).toEqual([]);
  });
});

describe('learning', () => {
  it.each([
    [
      "I've been learning Portuguese on Duolingo.",
      'User is learning Portuguese [user|learning|Portuguese]',
    ],
    [
      "I'm learning to play the violin.",
      'User is learning to play the violin [user|learning|play the violin]',
    ],
    ["I'm studying for the bar exam.", 'User is studying the bar exam [user|learning|bar exam]'],
    ['I take pottery classes.', 'User takes pottery classes [user|learning|pottery classes]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(learning, sentence))).toEqual([expected]);
  });

  it.each(['I learned a lot today.', 'I took a nap.'])('nothing from %j', (s) => {
    expect(applyRule(learning, s)).toEqual([]);
  });
});

describe('speaks', () => {
  it.each([
    [
      'I speak Spanish and French.',
      ['User speaks Spanish [user|speaks|Spanish]', 'User speaks French [user|speaks|French]'],
    ],
    ["I'm fluent in German.", ['User speaks German [user|speaks|German]']],
    ['My native language is Greek.', ['User speaks Greek natively [user|speaks|Greek]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(speaks, sentence))).toEqual(expected);
  });

  it.each(["I don't speak Dutch.", 'I spoke to my landlord.'])('nothing from %j', (s) => {
    expect(applyRule(speaks, s)).toEqual([]);
  });
});

describe('likes: idioms of fondness', () => {
  it.each([
    [
      "I'm a total sucker for cheesy romcoms.",
      'User is a sucker for cheesy romcoms [user|likes|cheesy romcoms]',
    ],
    ["I'm obsessed with crosswords.", 'User is obsessed with crosswords [user|likes|crosswords]'],
    ["I'm really hooked on Wordle.", 'User is hooked on Wordle [user|likes|Wordle]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(likes, text))).toEqual([expected]);
  });

  it.each(["I'm a sucker.", "I'm obsessed with it.", "I'm not obsessed with crosswords."])(
    'nothing from %j',
    (text) => {
      expect(applyRule(likes, text)).toEqual([]);
    },
  );
});

describe('hobby: picked up, and chores', () => {
  it.each([
    ['I picked up the banjo last winter.', 'User picked up the banjo [user|instrument|banjo]'],
    ['We took up salsa dancing.', 'User took up salsa dancing [user|hobby|salsa dancing]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(hobby, text))).toEqual([expected]);
  });

  it.each([
    'I picked up some milk.',
    "I'm doing the dishes.",
    "I'm doing keto again.",
    "We're doing a film evening for friends.",
    'I do my best work after 10pm.',
    'I do my own taxes.',
  ])('nothing from %j', (text) => {
    expect(applyRule(hobby, text)).toEqual([]);
  });
});

describe('hobbyByFrequency', () => {
  it.each([
    [
      'I boulder three times a week and my hands are wrecked.',
      "User's hobby is bouldering (boulders three times a week) [user|hobby|bouldering]",
    ],
    [
      'I run 5k most mornings.',
      "User's hobby is running (runs 5 k most mornings) [user|hobby|running]",
    ],
    ['We row every Saturday.', "User's hobby is rowing (rows every Saturday) [user|hobby|rowing]"],
  ])('%j', (text, expected) => {
    expect(withMeaning(hobbyByFrequency, text)).toEqual([expected]);
  });

  it.each([
    // duties, motor travel, an object that is not a measure
    'I work three days a week.',
    'I drive 40 miles every day.',
    'I call my mum every Sunday.',
    // not the writer's, not a habit, not now
    'She boulders three times a week.',
    'I bouldered yesterday.',
    "I don't boulder every week.",
    'Do you boulder every week?',
    'If I boulder three times a week my hands will bleed.',
    'I used to boulder three times a week.',
  ])('nothing from %j', (text) => {
    expect(
      extractFacts(text, { at: SAID_AT, words }).filter((f) => f.relation === 'hobby' && !f.ended),
    ).toEqual([]);
  });

  it.each([
    ['boulder', 'bouldering'],
    ['run', 'running'],
    ['hike', 'hiking'],
    ['row', 'rowing'],
    ['swim', 'swimming'],
    ['tie', 'tying'],
  ])('gerund(%j) is %j', (verb, expected) => {
    expect(gerund(verb)).toBe(expected);
  });
});

describe('startedActivity', () => {
  it.each([
    [
      'started bouldering a couple months ago and my forearms are wrecked',
      'User started bouldering [user|hobby|bouldering]',
    ],
    ['I got into rowing last spring.', 'User got into rowing [user|hobby|rowing]'],
  ])('%j', (text, expected) => {
    expect(withMeaning(startedActivity, text)).toEqual([expected]);
  });

  it.each([
    'I started working at Acme in May.',
    'I started running a bakery last year.',
    'My son started swimming lessons.',
    "I haven't started rowing yet.",
  ])('nothing from %j', (text) => {
    expect(withMeaning(startedActivity, text)).toEqual([]);
  });
});
