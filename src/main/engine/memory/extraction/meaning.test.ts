import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWordVectorAsset } from '../../../../../test/helpers/word-vectors.ts';
import { loadWordVectors, type WordVectors } from '../../vector/word-vectors.ts';
import {
  bodyPartByMeaning,
  frequentNameByMeaning,
  medicineByMeaning,
  meaningText,
  pastimeByMeaning,
  personByMeaning,
  personRelationByMeaning,
  relationByMeaning,
  softwareByMeaning,
} from './meaning.ts';
import { analyse } from './nlp.ts';

let words: WordVectors;
beforeAll(async () => {
  words = loadWordVectors(await ensureWordVectorAsset());
});

describe('relationByMeaning', () => {
  it.each([
    ['restrung my grandad’s old violin', 'instrument'],
    ['finally sold my motorbike', 'vehicle'],
    ['tore a ligament in my knee', 'health'],
    ['fostering two puppies from the shelter', 'pet'],
  ])('%j → %s', (statement, relation) => {
    expect(relationByMeaning(words, meaningText(analyse(statement)[0]!.toks))).toBe(relation);
  });

  it.each([
    'emptied the dishwasher and took the bins out',
    'answered forty emails before lunch',
    'queued at the post office',
    // single-valued relations are never guessed: a guess must not supersede a rule's value
    'drank a flat white with oat milk',
  ])('%j → none', (statement) => {
    expect(relationByMeaning(words, meaningText(analyse(statement)[0]!.toks))).toBeNull();
  });

  it('names and dates are left out of the words that are scored', () => {
    const [s] = analyse('I keep my recipes in Notion since March');
    expect(meaningText(s!.toks)).toBe('keep recipes in');
  });
});

describe('personRelationByMeaning', () => {
  it.each([
    ['head of department', 'manager'],
    ['director', 'manager'],
    ['supervisor', 'manager'],
  ])('%j → %s', (role, relation) => {
    expect(personRelationByMeaning(words, role)).toBe(relation);
  });

  it.each(['cousin', 'neighbour', 'teacher', 'landlord', 'favourite band', 'mentor'])(
    '%j → no clear kind of person',
    (role) => {
      expect(personRelationByMeaning(words, role)).toBeNull();
    },
  );
});

describe('personByMeaning', () => {
  it.each(['Tom', 'Dave', 'Rhys', 'Ravi'])('%j is a person', (name) => {
    expect(personByMeaning(words, name)).toBe(true);
  });

  // organisations, and names the vectors do not know (neither)
  it.each(['Ubisoft', 'Barclays', 'HSBC', 'Infosys', 'Zendrix'])('%j is not', (name) => {
    expect(personByMeaning(words, name)).toBe(false);
  });
});

describe('pastimeByMeaning', () => {
  it.each(['rowing', 'birding', 'skating', 'jogging', 'bouldering'])('%j is a pastime', (w) => {
    expect(pastimeByMeaning(words, w)).toBe(true);
  });

  it.each(['working', 'teaching', 'calling', 'visiting', 'training'])('%j is not', (w) => {
    expect(pastimeByMeaning(words, w)).toBe(false);
  });
});

describe('frequentNameByMeaning', () => {
  it.each(['james', 'david', 'mark', 'george'])('%j is mostly a name', (w) => {
    expect(frequentNameByMeaning(words, w)).toBe(true);
  });

  it.each(['love', 'letter', 'time', 'home', 'money'])('%j is not', (w) => {
    expect(frequentNameByMeaning(words, w)).toBe(false);
  });
});

describe('softwareByMeaning', () => {
  it.each(['excel', 'django', 'emacs', 'ubuntu', 'gmail', 'aws'])('%j is software', (w) => {
    expect(softwareByMeaning(words, w)).toBe(true);
  });

  // everyday things, and words the vectors do not know (neither)
  it.each(['pencil', 'notebook', 'coffee', 'spanish', 'inhaler', 'glasses', 'dbt'])(
    '%j is not',
    (w) => {
      expect(softwareByMeaning(words, w)).toBe(false);
    },
  );
});

describe('bodyPartByMeaning', () => {
  it.each(['knee', 'acl', 'hamstring', 'collarbone', 'wrist', 'meniscus'])('%j is', (w) => {
    expect(bodyPartByMeaning(words, w)).toBe(true);
  });

  it.each(['phone', 'heart', 'screen', 'promise', 'record', 'feelings'])('%j is not', (w) => {
    expect(bodyPartByMeaning(words, w)).toBe(false);
  });
});

describe('medicineByMeaning', () => {
  // by meaning, and by an INN stem for names the vectors lack
  it.each(['insulin', 'antidepressants', 'steroids', 'sertraline', 'metformin', 'lisinopril'])(
    '%j is',
    (w) => {
      expect(medicineByMeaning(words, w)).toBe(true);
    },
  );

  it.each(['keto', 'holiday', 'budget', 'team', 'phone', 'hinge', 'routine'])('%j is not', (w) => {
    expect(medicineByMeaning(words, w)).toBe(false);
  });
});
