import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { dislikes, favorite, hobby, instrument, learning, likes, speaks } from './interests.ts';

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

  it.each(['I love that!', 'I love it when you explain things.', "I don't like olives."])(
    'nothing from %j',
    (s) => {
      expect(applyRule(likes, s)).toEqual([]);
    },
  );
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

  it.each(['I picked up some milk.', "I'm doing the dishes.", "I'm doing keto again."])(
    'nothing from %j',
    (text) => {
      expect(applyRule(hobby, text)).toEqual([]);
    },
  );
});
