import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import type { Rule } from '../fact.ts';
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
  tasteFragment,
  tasteJudged,
} from './interests.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** A rule that needs word meaning, over every clause of a text. */
const withMeaning = (rule: Rule, text: string) => brief(applyRule(rule, text, false, words));

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
    // practised; wink reads "piano" after some verbs as an adverb
    ['Most evenings I practise piano', ['User plays the piano [user|instrument|piano]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(instrument, sentence))).toEqual(expected);
  });

  it.each([
    'I play chess.',
    "I don't play the drums.",
    'I practise law.',
    'I practise yoga daily.',
  ])('nothing from %j', (s) => {
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
    // turned round
    ['Spanish is my first language.', ['User speaks Spanish natively [user|speaks|Spanish]']],
    ['tagalog is my mother tongue', ['User speaks Tagalog natively [user|speaks|Tagalog]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(speaks, sentence))).toEqual(expected);
  });

  it.each([
    "I don't speak Dutch.",
    'I spoke to my landlord.',
    'Spanish is her first language.',
    'Python is my first love.',
  ])('nothing from %j', (s) => {
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
      "User's hobby is running (runs 5k most mornings) [user|hobby|running]",
    ],
    ['We row every Saturday.', "User's hobby is rowing (rows every Saturday) [user|hobby|rowing]"],
    // the time said before the subject
    ['Weekend mornings, I run 5k', "User's hobby is running (runs 5k) [user|hobby|running]"],
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

/** The facts the whole engine reads from a message, with word meaning, for one relation. */
const engineFacts = (text: string, relation: string) =>
  brief(extractFacts(text, { at: SAID_AT, words }).filter((f) => f.relation === relation));

describe('learning: a language picked up or brushed up', () => {
  it.each([
    [
      'trying to pick up Korean, my duolingo streak just hit 80 days',
      'User is learning Korean [user|learning|Korean]',
    ],
    [
      'brushing up on my Spanish before the trip',
      'User is brushing up on Spanish [user|learning|Spanish]',
    ],
    ["I'm trying to learn Mandarin.", 'User is learning Mandarin [user|learning|Mandarin]'],
    ['Started learning Greek a few weeks ago.', 'User is learning Greek [user|learning|Greek]'],
    [
      "I've been learning Japanese for a year.",
      'User is learning Japanese [user|learning|Japanese]',
    ],
    ['taking Italian classes on Tuesdays', 'User takes Italian classes [user|learning|Italian]'],
    [
      'picking up a bit of Tagalog from my in-laws',
      'User is learning Tagalog [user|learning|Tagalog]',
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(learning, text)).toEqual([expected]);
  });

  it.each([
    "I'm trying to pick up the pace.",
    'I picked up some Korean snacks.',
    'I tried to learn Korean once.',
    'brushing up on my slides for tomorrow',
    'I take the train to work.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(learning, text)).toEqual([]);
  });

  it.each([
    'if I learned Korean would it help?',
    'are you learning Korean?',
    'recommend a Korean drama',
    'my sister is trying to pick up Korean',
    '`learn Korean` is the name of the script',
  ])('the engine states no learning of the user from %j', (text) => {
    expect(
      extractFacts(text, { at: SAID_AT, words }).filter(
        (f) => f.relation === 'learning' && f.subject === 'user',
      ),
    ).toEqual([]);
  });

  it('a language picked up is not a hobby', () => {
    expect(withMeaning(hobby, 'I took up Korean last year.')).toEqual([]);
  });
});

describe('hobby: out doing a pastime, and taken up', () => {
  it.each([
    ["I'm out fishing most Sundays.", ['User goes fishing [user|hobby|fishing]']],
    [
      "I'm usually out birdwatching on the marshes.",
      ['User goes birdwatching [user|hobby|birdwatching]'],
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(hobby, text)).toEqual(expected);
  });

  it.each(["I'm out shopping.", "I'm out of milk.", 'She is out fishing.'])(
    'nothing about the user from %j',
    (text) => {
      expect(withMeaning(hobby, text).filter((f) => f.startsWith('User '))).toEqual([]);
    },
  );

  it.each([
    [
      "I've got really into bouldering lately, I'm at the climbing gym like three evenings a week.",
      'User got into bouldering [user|hobby|bouldering]',
    ],
    ["I've been getting into pottery.", 'User is getting into pottery [user|hobby|pottery]'],
    [
      'got into trail running last spring',
      'User got into trail running [user|hobby|trail running]',
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(startedActivity, text)).toEqual([expected]);
  });

  it.each([
    'I got into trouble at school.',
    'I got into Stanford!',
    'We got into the car.',
    'I got into debt.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(startedActivity, text)).toEqual([]);
  });
});

describe('likes: degree words, fandom and "can\'t get enough"', () => {
  it.each([
    [
      "I'm completely obsessed with Studio Ghibli films, I've watched Spirited Away about twenty times.",
      'User is obsessed with Studio Ghibli films [user|likes|Studio Ghibli films]',
    ],
    [
      "I'm a huge fan of Studio Ghibli.",
      'User is a fan of Studio Ghibli [user|likes|Studio Ghibli]',
    ],
    ["I can't get enough of K-dramas.", "User can't get enough of K-dramas [user|likes|K-dramas]"],
    [
      "I'm really into sourdough baking.",
      'User is into sourdough baking [user|hobby|sourdough baking]',
    ],
  ])('%j', (text, expected) => {
    expect(engineFacts(text, expected.includes('|hobby|') ? 'hobby' : 'likes')).toEqual([expected]);
  });

  it.each([
    'are you into bouldering?',
    'If I were obsessed with anime I would say so.',
    "I can't get enough sleep.",
    "I'm a huge fan of your work.",
    'recommend a Korean drama for someone obsessed with Ghibli',
    'const x = "I am obsessed with Rust"; // why does this fail?',
  ])('the engine states no like of the user from %j', (text) => {
    expect(
      extractFacts(text, { at: SAID_AT, words }).filter(
        (f) => (f.relation === 'likes' || f.relation === 'hobby') && f.subject === 'user',
      ),
    ).toEqual([]);
  });

  it("another person's obsession is theirs", () => {
    expect(engineFacts('my brother is obsessed with anime', 'likes')).toEqual([
      "User's brother is obsessed with anime [user's brother|likes|anime]",
    ]);
  });
});

describe('dislikes: not a fan, not into', () => {
  it.each([
    ["I'm not a fan of jazz.", "User isn't a fan of jazz [user|dislikes|jazz]"],
    ["I'm really not into horror.", "User isn't into horror [user|dislikes|horror]"],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(dislikes, text))).toEqual([expected]);
  });
});

describe('tasteFragment', () => {
  it.each([
    ['not a fan of jazz', "User isn't a fan of jazz [user|dislikes|jazz]"],
    ['big into trail running these days', 'User is into trail running [user|hobby|trail running]'],
    ['honestly huge fan of Ghibli', 'User is a fan of Ghibli [user|likes|Ghibli]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(tasteFragment, text))).toEqual([expected]);
  });

  it.each([
    'my brother is a huge fan of anime',
    'not a fan of it',
    'a fan of jazz?',
    'into the woods',
  ])('nothing from %j in the engine', (text) => {
    expect(extractFacts(text, { at: SAID_AT, words }).filter((f) => f.subject === 'user')).toEqual(
      [],
    );
  });
});

describe('tasteJudged', () => {
  it.each([
    [
      'ugh no cilantro please, it tastes like soap to me.',
      'User dislikes cilantro (tastes like soap) [user|dislikes|cilantro]',
    ],
    ['mushrooms are gross to me', 'User dislikes mushrooms (gross) [user|dislikes|mushrooms]'],
    [
      'Olives are absolutely disgusting.',
      'User dislikes Olives (disgusting) [user|dislikes|Olives]',
    ],
    [
      'coriander tastes like feet to me',
      'User dislikes coriander (tastes like feet) [user|dislikes|coriander]',
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(tasteJudged, text)).toEqual([expected]);
  });

  it.each([
    'the soup is gross',
    'mushrooms are gross to him',
    'it tastes like chicken to me',
    'cilantro tastes like chicken to me',
    "mushrooms aren't gross",
    'that was gross',
  ])('nothing from %j', (text) => {
    expect(withMeaning(tasteJudged, text)).toEqual([]);
  });

  it('the engine reads no taste from a question', () => {
    expect(engineFacts('are mushrooms gross?', 'dislikes')).toEqual([]);
  });
});
