import { describe, expect, it } from 'vitest';
import { hasPrivate, stripPrivate } from './private.ts';

describe('stripPrivate', () => {
  it.each([
    ['my pin is <private>1234</private> ok', 'my pin is ok'],
    ['a <PRIVATE>x\ny</PRIVATE> b <private attr="1">z</private> c', 'a b c'],
    ['nothing to hide', 'nothing to hide'],
    ['before <private>never closed secret', 'before'],
    ['<private>all</private>', ''],
    ['stray </private> close', 'stray close'],
  ])('%j → %j', (input, expected) => {
    expect(stripPrivate(input)).toBe(expected);
  });

  it('detects private spans', () => {
    expect(hasPrivate('x <private>y</private>')).toBe(true);
    expect(hasPrivate('I value my privacy')).toBe(false);
  });
});
