import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TiktokenLite from 'js-tiktoken/lite';
import { describe, expect, it } from 'vitest';
import { type BpeRanks, BpeTokenizer } from './bpe-tokenizer.ts';
import { seededRandom } from '../../../../test/helpers/seeded-random.ts';

// js-tiktoken is the reference: BpeTokenizer must give exactly its tokens.
const require = createRequire(import.meta.url);
const mod = require('js-tiktoken/ranks/cl100k_base') as BpeRanks | { default: BpeRanks };
const ranks = 'default' in mod ? mod.default : mod;
const { Tiktoken } = require('js-tiktoken/lite') as typeof TiktokenLite;
const reference = new Tiktoken(ranks as ConstructorParameters<typeof Tiktoken>[0]);
const tokenizer = new BpeTokenizer(ranks);

function expectSameAsReference(text: string): void {
  const expected = reference.encode(text, [], []);
  expect(tokenizer.encode(text), JSON.stringify(text.slice(0, 80))).toEqual(expected);
  expect(tokenizer.count(text)).toBe(expected.length);
  expect(tokenizer.decode(expected)).toBe(reference.decode(expected));
}

describe('BpeTokenizer (cl100k_base)', () => {
  it('encodes like js-tiktoken: words, numbers, code, whitespace, special-token text', () => {
    for (const text of [
      '',
      'hello world',
      'The quick brown fox jumps over the lazy dog.',
      "I'm sure they'll say it's fine, WE'VE DONE IT'S",
      '1234567890 3.14159 1,000,000 2023-05-08T13:56:00Z',
      'function f(x) {\n\treturn x * 2; // double\n}\n\n\n',
      '   leading and trailing   \r\n\r\n  ',
      '<|endoftext|> <|fim_prefix|> <|im_start|>',
      'https://example.com/a/b?c=d&e=f#g',
      'antidisestablishmentarianism supercalifragilisticexpialidocious',
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ]) {
      expectSameAsReference(text);
    }
  });

  it('encodes like js-tiktoken: accents, CJK, emoji, lone surrogates, control characters', () => {
    for (const text of [
      'Crème brûlée à la française, naïve café, Ångström, Øresund',
      'Привет, как дела? Ελληνικά. עברית. العربية',
      '日本語のテキストはとても長いです。中文文本。한국어 텍스트',
      '👍🏽 family: 👨‍👩‍👧‍👦 flags: 🇫🇷🇯🇵 ✨🎉',
      'lone \uD800 surrogate \uDC00 here',
      'tab\tbell\u0007null\u0000del\u007f',
    ]) {
      expectSameAsReference(text);
    }
  });

  it('encodes like js-tiktoken on random strings from a mixed alphabet', () => {
    const rand = seededRandom(7);
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
      ...' \n\t\r.,;:!?\'"()[]{}<>-_=+*/\\|@#$%^&~`',
      ...'éèüößñçø日本語中文한국어Жж',
      '👍',
      '🎉',
      '\u200d',
    ];
    for (let n = 0; n < 400; n++) {
      const length = 1 + Math.floor(rand() * 60);
      let s = '';
      for (let i = 0; i < length; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      expectSameAsReference(s);
    }
  });

  const locomo = join(import.meta.dirname, '../../../../../shared/bench/locomo-dev.json');
  it.runIf(existsSync(locomo))(
    'encodes like js-tiktoken on every turn of the LoCoMo dev set',
    () => {
      const data = JSON.parse(readFileSync(locomo, 'utf8')) as {
        conversation: Record<string, unknown>;
      }[];
      let turns = 0;
      for (const conv of data) {
        for (let n = 1; Array.isArray(conv.conversation[`session_${n}`]); n++) {
          for (const t of conv.conversation[`session_${n}`] as {
            speaker: string;
            text: string;
          }[]) {
            const text = `${t.speaker}: ${t.text}`;
            expect(tokenizer.count(text), text).toBe(reference.encode(text, [], []).length);
            turns++;
          }
        }
      }
      expect(turns).toBeGreaterThan(1000);
    },
  );

  it('decodes a cut inside a character to U+FFFD, as TextDecoder does', () => {
    const ids = tokenizer.encode('🎉');
    expect(ids.length).toBeGreaterThan(1);
    expect(tokenizer.decode(ids)).toBe('🎉');
    expect(tokenizer.decode(ids.slice(0, 1))).toMatch(/\uFFFD$/u);
    // ids that are not tokens decode to nothing
    expect(tokenizer.decode([-1, 1.5, 10_000_000])).toBe('');
  });
});
