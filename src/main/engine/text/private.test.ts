import { describe, expect, it } from 'vitest';
import { hasPrivate, isOnlyPrivate, stripPrivate } from './private.ts';

describe('stripPrivate', () => {
  it.each([
    ['my pin is <private>1234</private> ok', 'my pin is [private] ok'],
    ['a <PRIVATE>x\ny</PRIVATE> b <private attr="1">z</private> c', 'a [private] b [private] c'],
    ['spaced < private >x</ private > tags', 'spaced [private] tags'],
    ['nothing to hide', 'nothing to hide'],
    ['I value my privacy, private jet', 'I value my privacy, private jet'],
    ['before <private>never closed secret', 'before [private]'],
    ['<private>all</private>', '[private]'],
    ['stray </private> close', 'stray close'],
    ['stray at the end</private>', 'stray at the end'],
    ['x <private>a <private>b</private> still hidden</private> y', 'x [private] y'],
    ['<private>a</private><private>b</private>', '[private][private]'],
    [
      'keeps\n  indentation <private>k</private>\n\tand tabs',
      'keeps\n  indentation [private]\n\tand tabs',
    ],
  ])('%j → %j', (input, expected) => {
    expect(stripPrivate(input)).toBe(expected);
  });

  it('is idempotent', () => {
    const once = stripPrivate('a <private>b</private> c <private>d');
    expect(stripPrivate(once)).toBe(once);
  });

  it('never lets the hidden text through, whatever the tags look like', () => {
    const secret = 'S3CR3T';
    for (const input of [
      `<private>${secret}</private>`,
      `<Private data-x=">">${secret}</private>`,
      `</private><private>${secret}`,
      `<private><private>${secret}</private></private>`,
      `<private>a</private>b<private>${secret}`,
    ]) {
      expect(stripPrivate(input)).not.toContain(secret);
    }
  });
});

describe('hasPrivate', () => {
  it('detects an opening tag only', () => {
    expect(hasPrivate('x <private>y</private>')).toBe(true);
    expect(hasPrivate('x < PRIVATE>y')).toBe(true);
    expect(hasPrivate('I value my privacy')).toBe(false);
    expect(hasPrivate('stray </private>')).toBe(false);
  });
});

describe('isOnlyPrivate', () => {
  it.each([
    ['<private>all</private>', true],
    [' <private>a</private>, <private>b</private>. ', true],
    ['[private]', true],
    ['', true],
    ['   ', true],
    ['PIN: <private>1234</private>', false],
    ['[private] jazz', false],
    ['ok', false],
    ['!!!', false],
  ])('%j → %s', (input, expected) => {
    expect(isOnlyPrivate(input)).toBe(expected);
  });
});
