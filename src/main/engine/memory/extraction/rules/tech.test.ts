import { describe, expect, it } from 'vitest';
import { applyRule, brief } from '../../../../../../test/helpers/extraction.ts';
import { techUse } from './tech.ts';

describe('techUse', () => {
  it.each([
    [
      'We use Postgres and React for the backend and frontend.',
      ['User uses Postgres [user|stack|Postgres]', 'User uses React [user|stack|React]'],
    ],
    ['I code in Rust on weekends.', ['User codes in Rust [user|stack|Rust]']],
    ['I use Obsidian for my notes.', ['User uses Obsidian [user|tool|Obsidian]']],
    [
      'Our stack is Go and Kafka.',
      ['User uses Go (stack) [user|stack|Go]', 'User uses Kafka (stack) [user|stack|Kafka]'],
    ],
  ])('%j', (sentence, expected) => {
    expect(brief(applyRule(techUse, sentence))).toEqual(expected);
  });

  it.each(['I use a knife to open it.', "We don't use Slack.", 'They use Jira.'])(
    'nothing from %j',
    (s) => {
      expect(applyRule(techUse, s)).toEqual([]);
    },
  );
});
