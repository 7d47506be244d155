import { describe, expect, it } from 'vitest';
import { analyse } from './nlp.ts';

describe('analyse: words with letters the tokenizer does not know', () => {
  it.each([
    ['born and raised in Gdańsk, so the cold is nothing', 'Gdańsk'],
    ['we moved to Łódź last year', 'Łódź'],
    ['listening to Dvořák on repeat', 'Dvořák'],
  ])('%j keeps %s as one name', (text, name) => {
    const toks = analyse(text)[0]!.toks;
    const tok = toks.find((t) => t.text === name);
    expect(tok?.pos).toBe('PROPN');
    expect(toks.map((t) => t.text).join(' ')).not.toMatch(/\s(?:ń|ř|ź)/u);
  });

  it('entities after a joined word keep their tokens', () => {
    const [s] = analyse('We left Łódź in March 2024.');
    const date = s!.entities.find((e) => e.type === 'DATE')!;
    expect(s!.toks.slice(date.start, date.end + 1).map((t) => t.text)).toEqual(['March', '2024']);
  });
});
