import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import type { Rule } from '../fact.ts';
import { backHome, comesFrom, homeIn, livesIn, movedTo, sinceMove, timeIn } from './places.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

/** A rule that tells places by word meaning, over every clause of a sentence. */
const withMeaning = (rule: Rule, text: string) => brief(applyRule(rule, text, false, words));

describe('livesIn', () => {
  it.each([
    ['I live in Lisbon.', 'User lives in Lisbon [user|lives_in|Lisbon]'],
    [
      "I'm based in Austin, Texas these days.",
      'User lives in Austin, Texas [user|lives_in|Austin, Texas]',
    ],
    ['My sister lives in Rome.', "User's sister lives in Rome [user's sister|lives_in|Rome]"],
    ['I lived in Berlin for six years.', 'User lived in Berlin [user|lives_in|Berlin|ended]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(livesIn, sentence))).toEqual([expected]);
  });

  it.each([
    'I live in hope.',
    'I live with my parents.',
    'Tom lives in Paris.',
    'They live in Oslo.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(livesIn, sentence)).toEqual([]);
  });

  it.each([
    [
      'we live just outside tucson so summer is basically five months of living inside an oven',
      'User lives near Tucson [user|lives_in|Tucson]',
    ],
    ['I live right by Leeds.', 'User lives near Leeds [user|lives_in|Leeds]'],
    ['we live close to york', 'User lives near York [user|lives_in|York]'],
    ['i live near new york city', 'User lives near New York [user|lives_in|New York]'],
    [
      "I'm based just outside of Manchester.",
      'User lives near Manchester [user|lives_in|Manchester]',
    ],
    [
      'my brother lives in glasgow',
      "User's brother lives in Glasgow [user's brother|lives_in|Glasgow]",
    ],
  ])('a place near home, or in lower case: %j', (sentence, expected) => {
    expect(withMeaning(livesIn, sentence)).toEqual([expected]);
  });

  it.each([
    'I live near the office.',
    'we live in the suburbs',
    'I live by the rule that mornings are sacred.',
    'I live for the weekend.',
  ])('no place from %j', (sentence) => {
    expect(withMeaning(livesIn, sentence)).toEqual([]);
  });

  it('a date ahead in the clause is not when the home began', () => {
    const [fact] = extractFacts('we live just outside tucson so summer is basically an oven', {
      at: SAID_AT,
      words,
    });
    expect(fact).toMatchObject({ relation: 'lives_in', object: 'Tucson', validFrom: null });
  });

  it.each([
    'where do you live?',
    'Do you live near Leeds?',
    'If we lived near Leeds we would walk.',
  ])('nothing from the question or supposition %j', (sentence) => {
    expect(extractFacts(sentence, { at: SAID_AT, words })).toEqual([]);
  });

  it('is an identity fact for the user, not for a relative', () => {
    expect(applyRule(livesIn, 'I live in Ghent.')[0]?.identity).toBe(true);
    expect(applyRule(livesIn, 'My dad lives in Ghent.')[0]?.identity).toBe(false);
  });
});

describe('homeIn', () => {
  it.each([
    [
      'We finally left London, bought a little terraced house in Sheffield last month.',
      'User lives in Sheffield [user|lives_in|Sheffield]',
    ],
    ['I rent a studio in Brooklyn.', 'User lives in Brooklyn [user|lives_in|Brooklyn]'],
    [
      'Just got the keys to our new place in Leith, the view is unreal.',
      'User lives in Leith [user|lives_in|Leith]',
    ],
    // A home from a date ahead: a move to come.
    [
      'Just signed a lease on a flat in Valencia, starting in September!',
      'User is moving to Valencia [user|plans|move to Valencia]',
    ],
  ])('%j', (sentence, expected) => {
    expect(withMeaning(homeIn, sentence)).toEqual([expected]);
  });

  it.each([
    'My sister bought a flat in Leeds.',
    'I bought a house plant in Ikea.',
    'I found a place in Python.',
    "We didn't buy the house in Leeds.",
  ])('nothing from %j', (sentence) => {
    expect(withMeaning(homeIn, sentence)).toEqual([]);
  });
});

describe('movedTo', () => {
  it.each([
    ['I moved to Lisbon in March.', 'User moved to Lisbon [user|lives_in|Lisbon]'],
    [
      'We relocated to Vancouver after the wedding.',
      'User moved to Vancouver [user|lives_in|Vancouver]',
    ],
    ["We're moving to Porto next month.", 'User is moving to Porto [user|plans|move to Porto]'],
    // the town of the home moved into
    ['We finally moved into our new place in Porto.', 'User moved to Porto [user|lives_in|Porto]'],
    ['I moved to a flat in Leeds.', 'User moved to Leeds [user|lives_in|Leeds]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(movedTo, sentence))).toEqual([expected]);
  });

  it.each([
    'We moved into a new house in March.',
    'I moved into a new team in Finance.',
    'We moved the sofa into the flat in the end.',
  ])('no home from %j', (sentence) => {
    expect(applyRule(movedTo, sentence)).toEqual([]);
  });

  it.each([
    [
      'Just relocated from Bristol to Edinburgh for the new role, still getting used to all the hills.',
      [
        'User used to live in Bristol [user|lives_in|Bristol|ended]',
        'User moved to Edinburgh [user|lives_in|Edinburgh]',
      ],
    ],
    [
      'moved out of london to brighton in may',
      [
        'User used to live in London [user|lives_in|London|ended]',
        'User moved to Brighton [user|lives_in|Brighton]',
      ],
    ],
    ['We moved back to Glasgow.', ['User moved to Glasgow [user|lives_in|Glasgow]']],
    ['we moved just outside leeds', ['User moved near Leeds [user|lives_in|Leeds]']],
    [
      'Moved here from Bristol last year.',
      ['User used to live in Bristol [user|lives_in|Bristol|ended]'],
    ],
    [
      'My sister just relocated to Leeds.',
      ["User's sister moved to Leeds [user's sister|lives_in|Leeds]"],
    ],
    [
      'my sister just relocated from leeds to york',
      [
        "User's sister used to live in Leeds [user's sister|lives_in|Leeds|ended]",
        "User's sister moved to York [user's sister|lives_in|York]",
      ],
    ],
  ])('from one home to another: %j', (sentence, expected) => {
    expect(withMeaning(movedTo, sentence)).toEqual(expected);
  });

  it('a sister who relocated is the sister, not the user', () => {
    const facts = extractFacts('My sister just relocated to Leeds.', { at: SAID_AT, words });
    expect(facts.map((f) => f.subject)).toEqual(["user's sister"]);
    expect(facts[0]?.identity).toBe(false);
  });

  it.each([
    'We no longer use Jenkins; we moved to GitHub Actions.',
    'I moved the meeting to Friday.',
    'Tom moved to Rome.',
    'I moved from marketing to sales.',
    'we moved off Trello onto Asana',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(movedTo, sentence)).toEqual([]);
    expect(withMeaning(movedTo, sentence)).toEqual([]);
  });

  it.each([
    'did you move to Leeds?',
    'if we moved to Leeds we would be closer to my mum',
    'Tom said he relocated from Bristol to Leeds.',
  ])('nothing from the question, supposition or report %j', (sentence) => {
    const facts = extractFacts(sentence, { at: SAID_AT, words });
    expect(facts.filter((f) => f.relation === 'lives_in')).toEqual([]);
  });
});

describe('comesFrom', () => {
  it.each([
    ["I'm from Porto originally.", 'User is from Porto [user|from|Porto]'],
    ['I grew up in Leeds.', 'User is from Leeds [user|from|Leeds]'],
    ['My mom comes from Manila.', "User's mom is from Manila [user's mom|from|Manila]"],
    ['born and raised in Gdańsk, so the cold is nothing', 'User is from Gdańsk [user|from|Gdańsk]'],
    ['I was raised in Cork.', 'User is from Cork [user|from|Cork]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(comesFrom, sentence))).toEqual([expected]);
  });

  it.each(['I am from the future.', 'That email is from Dana.', 'I raised it in Slack.'])(
    'nothing from %j',
    (sentence) => {
      expect(applyRule(comesFrom, sentence)).toEqual([]);
    },
  );
});

describe('movedTo: settling in', () => {
  it.each([
    ['Settling into Bristol nicely.', 'User is settling into Bristol [user|lives_in|Bristol]'],
    ['We settled in Galway last year.', 'User settled in Galway [user|lives_in|Galway]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(movedTo, text))).toEqual([expected]);
  });

  it.each(["We're settling into the new routine.", 'I settled the bill.'])(
    'nothing from %j',
    (text) => {
      expect(applyRule(movedTo, text)).toEqual([]);
    },
  );
});

describe('timeIn', () => {
  it.each([
    [
      'Two winters in Cardiff now and the damp is winning.',
      'User has lived in Cardiff for two winters [user|lives_in|Cardiff]',
    ],
    [
      'Six months in Lisbon now, loving it',
      'User has lived in Lisbon for six months [user|lives_in|Lisbon]',
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(timeIn, text)).toEqual([expected]);
  });

  it.each([
    // a trip, not a home
    'Two weeks in Bali was amazing.',
    // the vectors know it, and not as a place
    'Two years in Python now and I still love it.',
    // the span has a verb of its own
    'Three years in Berlin taught me patience.',
    'Spent three years in Berlin.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(timeIn, text)).toEqual([]);
  });
});

describe('sinceMove', () => {
  it.each([
    ['Ever since the move to Leeds I sleep better.', 'User moved to Leeds [user|lives_in|Leeds]'],
    ['since our move to Porto we walk everywhere', 'User moved to Porto [user|lives_in|Porto]'],
  ])('%j', (text, expected) => {
    expect(withMeaning(sinceMove, text)).toEqual([expected]);
  });

  it.each([
    'Since the move to Postgres our queries are faster.',
    'She has been happier since the move to Leeds.',
    'Ana is happier since the move to Leeds.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(sinceMove, text)).toEqual([]);
  });

  it('"since moving to" is a move that happened, not a plan', () => {
    expect(
      brief(extractFacts('since moving to Porto we walk everywhere', { at: SAID_AT, words })),
    ).toEqual(['User moved to Porto [user|lives_in|Porto]']);
  });
});

describe('backHome', () => {
  it.each([
    [
      'Back in Recife my grandma made tapioca every single morning.',
      'User is from Recife [user|from|Recife]',
    ],
    [
      'Back home in Accra we used to eat this every Sunday.',
      'User is from Accra [user|from|Accra]',
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(backHome, text)).toEqual([expected]);
  });

  it.each([
    // present: where the user is now, not where they come from
    "I'm back in London now.",
    'Back in London my sister is doing fine.',
    // someone else's past
    'Back in Leeds, Tom made tapioca every morning.',
    'Back in Slack, I answered the thread.',
    'Back in March I went to the dentist.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(backHome, text)).toEqual([]);
  });

  it('"used to" ends the habit, not where the user comes from', () => {
    const facts = extractFacts('Back home in Accra we used to eat this every Sunday.', {
      at: SAID_AT,
      words,
    });
    expect(facts.find((f) => f.relation === 'from')).toMatchObject({
      object: 'Accra',
      ended: false,
    });
  });
});
