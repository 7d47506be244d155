import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { switched } from './changes.ts';

describe('switched', () => {
  it.each([
    ['I switched to green tea.', ['User drinks green tea [user|drink|green tea]']],
    [
      'I switched from VS Code to Neovim.',
      [
        'User uses Neovim (switched from VS Code) [user|tool|Neovim]',
        'User no longer uses VS Code [user|tool|VS Code|ended]',
      ],
    ],
    [
      'We migrated from MySQL to Postgres last year.',
      [
        'User uses Postgres (switched from MySQL) [user|tool|Postgres]',
        'User no longer uses MySQL [user|tool|MySQL|ended]',
      ],
    ],
    [
      'I replaced my car with an e-bike.',
      [
        'User has e-bike (switched from their car) [user|vehicle|e-bike]',
        'User no longer has their car [user|vehicle|their car|ended]',
      ],
    ],
    [
      'We dropped Slack for Microsoft Teams last month.',
      [
        'User uses Microsoft Teams (switched from Slack) [user|tool|Microsoft Teams]',
        'User no longer uses Slack [user|tool|Slack|ended]',
      ],
    ],
    [
      "We used to deploy with Jenkins but we've moved everything to GitHub Actions now.",
      ['User uses GitHub Actions [user|tool|GitHub Actions]'],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(switched, sentence))).toEqual(expected);
  });

  it.each([
    'I dropped the class for a week.',
    'I moved everything to the attic.',
    'I switched off the lights.',
    "I'll switch to decaf soon.",
    'I went to Paris.',
    'I moved to Lisbon.',
  ])('nothing from %j', (s) => {
    expect(applyRule(switched, s)).toEqual([]);
  });
});
