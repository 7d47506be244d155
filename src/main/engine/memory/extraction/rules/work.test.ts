import { beforeAll, describe, expect, it } from 'vitest';
import { applyRule, brief, SAID_AT } from '../../../../../../test/helpers/extraction.ts';
import { ensureWordVectorAsset } from '../../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../../vector/word-vectors.ts';
import { extractFacts } from '../extract.ts';
import { employer, jobTitle, leftJob } from './work.ts';

describe('jobTitle', () => {
  it.each([
    ['I work as a paramedic.', ['User is a paramedic [user|job|paramedic]']],
    [
      "I'm a data engineer at Shopify.",
      [
        'User is a data engineer [user|job|data engineer]',
        'User works at Shopify [user|works_at|Shopify]',
      ],
    ],
    ['My wife is a pharmacist.', ["User's wife is a pharmacist [user's wife|job|pharmacist]"]],
    ['I was a teacher before.', ['User was a teacher [user|job|teacher|ended]']],
    [
      'I work at Acme as a data engineer.',
      [
        'User is a data engineer [user|job|data engineer]',
        'User works at Acme [user|works_at|Acme]',
      ],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(jobTitle, sentence))).toEqual(expected);
  });

  it.each([
    "I'm a big fan of hers.",
    "I'm a morning person.",
    "I'm a bit tired.",
    'She is a nurse.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(jobTitle, sentence)).toEqual([]);
  });
});

describe('employer', () => {
  it.each([
    ['I work at Shopify.', 'User works at Shopify [user|works_at|Shopify]'],
    ['I joined Stripe in January.', 'User works at Stripe [user|works_at|Stripe]'],
    ['I joined a startup called Tandem.', 'User works at Tandem [user|works_at|Tandem]'],
    [
      "I work at St Mary's hospital.",
      "User works at St Mary's hospital [user|works_at|St Mary's hospital]",
    ],
    ["I work at King's College.", "User works at King's College [user|works_at|King's College]"],
    ['I got a job at the BBC!', 'User works at BBC [user|works_at|BBC]'],
    ["I'll start at Google in May.", 'User is starting at Google [user|plans|start at Google]'],
  ])('%j', (sentence, expected) => {
    const facts = applyRule(employer, sentence);
    expect(brief(facts)).toEqual([expected]);
  });

  it.each([
    'I work at home most days.',
    'I joined a gym.',
    'My brother works for himself.',
    'I joined a book club called Page Turners.',
  ])('nothing from %j', (sentence) => {
    expect(applyRule(employer, sentence)).toEqual([]);
  });
});

describe('leftJob', () => {
  it.each([
    [
      'I quit my job at Deloitte.',
      'User quit their job at Deloitte [user|works_at|Deloitte|ended]',
    ],
    ['I left Google in 2022.', 'User left Google [user|works_at|Google|ended]'],
    [
      'I was laid off from Acme last week.',
      'User was laid off from Acme [user|works_at|Acme|ended]',
    ],
    ['I quit my job.', 'User quit their job [user|works_at|*|ended]'],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(leftJob, sentence))).toEqual([expected]);
  });

  it.each(['I left my keys at home.', 'I quit sugar.', "I didn't quit my job."])(
    'nothing from %j',
    (sentence) => {
      expect(applyRule(leftJob, sentence)).toEqual([]);
    },
  );

  it('a place left is a home left, not a job (by word meaning)', async () => {
    const words = loadWordVectors(await ensureWordVectorAsset());
    const facts = extractFacts('We finally left London.', { at: SAID_AT, words });
    expect(brief(facts)).toEqual(['User left London [user|lives_in|London|ended]']);
  });
});

describe('employer: years spent at a place', () => {
  it.each([
    ["I've been at Monzo since 2021.", 'User works at Monzo [user|works_at|Monzo]'],
    ['I have been at the BBC for six years now.', 'User works at BBC [user|works_at|BBC]'],
    // "I've" left out, as chat writes it
    [
      'been at Deloitte for 3 years now and burnt out.',
      'User works at Deloitte [user|works_at|Deloitte]',
    ],
  ])('%j', (text, expected) => {
    expect(brief(applyRule(employer, text))).toEqual([expected]);
  });

  it.each(['I was at Tesco yesterday.', "I'm at Heathrow now.", "I've been at Gatwick all day."])(
    'nothing from %j',
    (text) => {
      expect(applyRule(employer, text)).toEqual([]);
    },
  );
});

describe('jobTitle: occupations by their ending', () => {
  it.each([
    ['My grandad was a fisherman.', []],
    ["My dad's a locksmith.", ["User's dad is a locksmith"]],
    ['I am a dermatologist.', ['User is a dermatologist [user|job|dermatologist]']],
    ['She is a German.', []],
  ])('%j', (text, expected) => {
    const got = brief(applyRule(jobTitle, text));
    if (expected.length === 0) expect(got).toEqual([]);
    else expect(got.map((f) => f.split(' [')[0])).toEqual(expected.map((f) => f.split(' [')[0]));
  });
});

describe('employerInPassing', () => {
  let words: WordVectors;
  beforeAll(async () => {
    words = loadWordVectors(await ensureWordVectorAsset());
  });
  const employersIn = (text: string) =>
    brief(extractFacts(text, { at: SAID_AT, words }).filter((f) => f.relation === 'works_at'));

  it.each([
    [
      "the crunch before launch at Ubisoft is brutal, haven't seen daylight in 2 weeks.",
      'User works at Ubisoft [user|works_at|Ubisoft]',
    ],
    [
      "Barclays's mid-year reviews are next week and I have to write my self-assessment.",
      'User works at Barclays [user|works_at|Barclays]',
    ],
    ['My team at Zendrix ships on Fridays.', 'User works at Zendrix [user|works_at|Zendrix]'],
    ['Covering an extra shift at Tesco this weekend.', 'User works at Tesco [user|works_at|Tesco]'],
    [
      'I cycle to my job at Barclays every morning.',
      'User works at Barclays [user|works_at|Barclays]',
    ],
  ])('%j', (text, expected) => {
    expect(employersIn(text)).toEqual([expected]);
  });

  it.each([
    // news about a company, with no word of the writer's own
    'The crunch before launch at Ubisoft is brutal.',
    "Google's layoffs are next week.",
    // a person's things, a place, someone else's work
    "Tom's reviews are next week and I have to read them.",
    'My team at Leeds ships on Fridays.',
    'His shift at Tesco ends at 6 and I pick him up.',
    'Her new job at Tesco starts Monday and I am driving her.',
    'My sister loves her team at Stripe.',
    "We had dinner at Dave's after my shift.",
    // asked, supposed, reported
    'Is the crunch at Ubisoft as bad as I heard?',
    'If I got the job at Ubisoft my team would be in Montreal.',
    'Tom said the crunch at Ubisoft is brutal.',
  ])('nothing from %j', (text) => {
    expect(employersIn(text)).toEqual([]);
  });
});

describe('jobTitle: in a town, by a post, with a time', () => {
  let words: WordVectors;
  beforeAll(async () => {
    words = loadWordVectors(await ensureWordVectorAsset());
  });
  const withMeaning = (text: string) => brief(applyRule(jobTitle, text, false, words));

  it.each([
    [
      "I'm a secondary school teacher in Glasgow.",
      [
        'User is a secondary school teacher [user|job|secondary school teacher]',
        'User lives in Glasgow [user|lives_in|Glasgow]',
      ],
    ],
    // an occupation before the head names the post too
    ["I'm a vet tech.", ['User is a vet tech [user|job|vet tech]']],
    ["I'm a night shift nurse.", ['User is a night shift nurse [user|job|night shift nurse]']],
    [
      "I've been at Spotify for 3 years as a data analyst.",
      [
        'User is a data analyst [user|job|data analyst]',
        'User works at Spotify [user|works_at|Spotify]',
      ],
    ],
  ])('%j', (text, expected) => {
    expect(withMeaning(text)).toEqual(expected);
  });

  it.each([
    // not a town, or a job that ended
    ["I'm a nurse in the NHS.", ['User is a nurse [user|job|nurse]']],
    ["I'm a developer in Python.", ['User is a developer [user|job|developer]']],
    ['I was a teacher in Leeds.', ['User was a teacher [user|job|teacher|ended]']],
    // no occupation in the phrase at all
    ["I'm a morning person.", []],
    ["I've been at Gatwick for 3 hours as a favour.", []],
  ])('no home from %j', (text, expected) => {
    expect(withMeaning(text)).toEqual(expected);
  });
});
