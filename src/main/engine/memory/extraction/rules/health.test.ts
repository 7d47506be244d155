import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import {
  allergy,
  allergyNamed,
  allergyRemedy,
  conditionDay,
  diagnosisNamed,
  diet,
  dietNow,
  healthCondition,
  injury,
  medication,
  sensitivity,
} from './health.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

describe('diet', () => {
  it.each([
    ["I'm vegan.", 'User is vegan [user|diet|vegan]'],
    ["I've been vegetarian since 2019.", 'User is vegetarian [user|diet|vegetarian]'],
    ["I'm on a keto diet.", 'User is keto [user|diet|keto]'],
    ["I don't eat meat.", "User doesn't eat meat [user|diet|no meat]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(diet, sentence))).toEqual([expected]);
  });

  it.each(["I'm hungry.", "I don't eat breakfast.", 'My cat is vegan.'])('nothing from %j', (s) => {
    expect(applyRule(diet, s)).toEqual([]);
  });
});

describe('allergy', () => {
  it.each([
    [
      "I'm allergic to shellfish and peanuts.",
      [
        'User is allergic to shellfish [user|allergy|shellfish]',
        'User is allergic to peanuts [user|allergy|peanuts]',
      ],
    ],
    ['My son is allergic to eggs.', ["User's son is allergic to eggs [user's son|allergy|eggs]"]],
    ["I'm lactose intolerant.", ['User is lactose intolerant [user|allergy|lactose]']],
    ['I have a nut allergy.', ['User has a nut allergy [user|allergy|nut]']],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(allergy, sentence))).toEqual(expected);
  });

  it.each(["I'm not allergic to anything.", 'Is she allergic to cats?'])('nothing from %j', (s) => {
    expect(applyRule(allergy, s).filter((f) => f.subject === 'user')).toEqual([]);
  });
});

describe('healthCondition', () => {
  it.each([
    ['I have celiac disease.', 'User has celiac disease [user|health|celiac disease]'],
    ['I was diagnosed with asthma in 2015.', 'User was diagnosed with asthma [user|health|asthma]'],
    ['I have a bad knee.', 'User has a bad knee [user|health|bad knee]'],
    ["I'm pregnant!", 'User is pregnant [user|health|pregnant]'],
    // A condition as an adjective (wink tags "type" and "deaf" here as verbs).
    ["I'm type 1 diabetic", 'User is type 1 diabetic [user|health|type 1 diabetic]'],
    ['I am coeliac so no gluten', 'User is coeliac [user|health|coeliac]'],
    ['My son is autistic.', "User's son is autistic [user's son|health|autistic]"],
    ['My dad is deaf in one ear.', "User's dad is deaf [user's dad|health|deaf]"],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(healthCondition, sentence))).toEqual([expected]);
  });

  it.each([
    'I have a meeting.',
    'I have two kids.',
    "I don't have diabetes.",
    "I'm not diabetic.",
    'Is he diabetic?',
    'The diabetic menu was bland.',
    'If I were diabetic I would cut sugar.',
  ])('nothing from %j', (s) => {
    expect(applyRule(healthCondition, s)).toEqual([]);
  });
});

describe('sensitivity', () => {
  it.each([
    ['Coffee makes me jittery.', 'Coffee makes User jittery [user|health|coffee]'],
    ['Dairy makes me bloated.', 'Dairy makes User bloated [user|health|dairy]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(sensitivity, sentence))).toEqual([expected]);
  });

  it.each([
    'Music makes him calm.',
    'I make coffee every morning.',
    "Coffee doesn't make me jittery.",
  ])('nothing from %j', (s) => {
    expect(applyRule(sensitivity, s)).toEqual([]);
  });
});

describe('diet: "doing" a diet', () => {
  it('"I\'m doing paleo these days"', () => {
    expect(brief(applyRule(diet, "I'm doing paleo these days."))).toEqual([
      'User does paleo [user|diet|paleo]',
    ]);
  });

  it('nothing from "I\'m doing the cooking"', () => {
    expect(applyRule(diet, "I'm doing the cooking.")).toEqual([]);
  });
});

describe('diet: keeping to one', () => {
  it.each([
    ['We keep halal at home.', 'User keeps halal [user|diet|halal]'],
    ['Staying vegan while I travel.', 'User stays vegan [user|diet|vegan]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(diet, sentence))).toEqual([expected]);
  });

  it.each(['I keep a keto cookbook in the kitchen.', "We don't keep kosher."])(
    'nothing from %j',
    (s) => {
      expect(applyRule(diet, s)).toEqual([]);
    },
  );

  it('"I think I\'m sticking with keto": the writer hedging their own statement', () => {
    const facts = extractFacts("I think I'm sticking with keto for now.", { at: SAID_AT });
    expect(brief(facts)).toEqual(['User sticks with keto [user|diet|keto]']);
  });

  it.each(["Tom thinks I'm vegan.", "I don't think I'm vegan.", 'I think my sister is vegan.'])(
    'the engine keeps %j out',
    (text) => {
      expect(extractFacts(text, { at: SAID_AT })).toEqual([]);
    },
  );
});

describe('allergyRemedy', () => {
  it.each([
    [
      'carried an EpiPen since I was 5 because of peanuts',
      'User is allergic to peanuts (carries EpiPen) [user|allergy|peanuts]',
    ],
    [
      'I carry an EpiPen for my shellfish allergy.',
      'User is allergic to shellfish (carries EpiPen) [user|allergy|shellfish]',
    ],
    [
      'My son has an EpiPen because of tree nuts.',
      "User's son is allergic to tree nuts (carries EpiPen) [user's son|allergy|tree nuts]",
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(allergyRemedy, sentence))).toEqual([expected]);
  });

  it.each([
    "I've had an EpiPen for years.",
    "I don't carry an EpiPen because of the cost.",
    'I carry a water bottle because of the heat.',
    'He carries an EpiPen because of peanuts.',
  ])('nothing from %j', (s) => {
    expect(applyRule(allergyRemedy, s)).toEqual([]);
  });

  it('a question about carrying one is no fact', () => {
    expect(extractFacts('Should I carry an EpiPen because of shellfish?', { at: SAID_AT })).toEqual(
      [],
    );
  });
});

describe('diagnosisNamed', () => {
  it.each([
    [
      "Since the type 2 diagnosis in March I'm trying to walk after dinner.",
      'User was diagnosed with type 2 [user|health|type 2]',
    ],
    [
      'After my ADHD diagnosis I reorganised my whole week.',
      'User was diagnosed with ADHD [user|health|ADHD]',
    ],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(diagnosisNamed, text))).toEqual([expected]);
  });

  it.each([
    "Since her type 2 diagnosis she's been walking daily.",
    "Tom's ADHD diagnosis came through.",
    'The diagnosis took months, I hear.',
    'The new diagnosis changed everything for the team.',
  ])('nothing from %j', (text) => {
    expect(applyRule(diagnosisNamed, text)).toEqual([]);
  });

  it('is not read from a question', () => {
    expect(extractFacts('Did the type 2 diagnosis surprise you?', { at: SAID_AT })).toEqual([]);
  });
});

describe('conditionDay', () => {
  it.each([
    ['migraine day again so keep it short', 'User has migraine days [user|health|migraine]'],
    ['Bad back day, sorry for the slow replies.', 'User has bad back days [user|health|bad back]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(conditionDay, text))).toEqual([expected]);
  });

  it.each([
    'Migraine day for my mum, so I am on school runs.',
    'Sports day again so keep it short.',
    'My migraine day plan is ready.',
  ])('nothing from %j', (text) => {
    expect(applyRule(conditionDay, text)).toEqual([]);
  });
});

describe('dietNow', () => {
  it.each([
    [
      'the doctor suggested it, so pescatarian now I guess.',
      'User is pescatarian now [user|diet|pescatarian]',
    ],
    ['Officially vegan now, my third week!', 'User is vegan now [user|diet|vegan]'],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(dietNow, text))).toEqual([expected]);
  });

  it.each([
    "She's vegan now.",
    'My sister went vegan now and then.',
    'Is the cafe vegan now?',
    'If I were vegan now I would miss cheese.',
  ])('nothing from %j', (text) => {
    const facts = extractFacts(text, { at: SAID_AT });
    expect(facts.filter((f) => f.relation === 'diet' && f.subject === 'user')).toEqual([]);
  });
});

describe('injury', () => {
  const withMeaning = (text: string) => brief(applyRule(injury, text, false, words));
  it.each([
    ['I tore my ACL skiing in March.', 'User tore their ACL [user|health|ACL]'],
    ['since i tore my acl playing football', 'User tore their acl [user|health|acl]'],
    [
      'I sprained my left ankle on the stairs.',
      'User sprained their left ankle [user|health|left ankle]',
    ],
    ['My son broke his wrist.', "User's son broke his wrist [user's son|health|wrist]"],
  ])('%j', (text, expected) => {
    expect(withMeaning(text)).toEqual([expected]);
  });

  it.each([
    'I broke my phone.',
    'She broke my heart.',
    'I hurt my feelings.',
    'My son broke my laptop.',
    "I didn't break my ankle.",
  ])('nothing from %j', (text) => {
    expect(withMeaning(text)).toEqual([]);
  });
});

describe('medication', () => {
  const withMeaning = (text: string) => brief(applyRule(medication, text, false, words));
  it.each([
    ["I'm on sertraline.", 'User is on sertraline [user|health|sertraline]'],
    [
      "I've been on antidepressants since May.",
      'User is on antidepressants [user|health|antidepressants]',
    ],
    ['I take insulin.', 'User takes insulin [user|health|insulin]'],
  ])('%j', (text, expected) => {
    expect(withMeaning(text)).toEqual([expected]);
  });

  it('each medicine of a list', () => {
    expect(withMeaning('I take metformin and lisinopril.')).toEqual([
      'User takes metformin [user|health|metformin]',
      'User takes lisinopril [user|health|lisinopril]',
    ]);
  });

  it.each([
    "I'm on holiday.",
    "I'm on a diet.",
    "I'm on Hinge.",
    'I take the train.',
    'I take notes in class.',
    "I'm not on insulin.",
    'My pharmacy is on Main Street.',
  ])('nothing from %j', (text) => {
    expect(withMeaning(text)).toEqual([]);
  });
});

describe('allergyNamed', () => {
  it.each([
    [
      'severe peanut allergy here so I check every label',
      'User has a peanut allergy [user|allergy|peanut]',
    ],
    [
      'With my shellfish allergy I never order paella.',
      'User has a shellfish allergy [user|allergy|shellfish]',
    ],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(allergyNamed, text))).toEqual([expected]);
  });

  it.each([
    "My son's peanut allergy is scary.",
    'Cooking for a friend with a nut allergy.',
    'Her nut allergy is severe.',
    'The allergy season starts in May.',
    'Kids with a peanut allergy often grow out of it.',
  ])('nothing from %j', (text) => {
    expect(applyRule(allergyNamed, text)).toEqual([]);
  });
});
