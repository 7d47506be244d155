import { describe, expect, it } from 'vitest';
import { forgottenWording, statesForgotten } from './suppress.ts';

const forgot = (...facts: string[]) => facts.map(forgottenWording).filter((f) => f !== null);

describe('statesForgotten', () => {
  const yaml = forgot('User is allergic to YAML config files');

  it('finds the fact in a transcript line or a summary that uses the same words', () => {
    expect(statesForgotten("I'm allergic to YAML config files, they make me itch", yaml)).toBe(
      true,
    );
    expect(
      statesForgotten('The user said they are allergic to yaml configs and prefers TOML.', yaml),
    ).toBe(true);
  });

  it('leaves lines that share only a word or two', () => {
    expect(statesForgotten('We moved the config to TOML files last week.', yaml)).toBe(false);
    expect(statesForgotten('My cat is allergic to fish.', yaml)).toBe(false);
  });

  it('holds a short fact by its objects even when the verb differs', () => {
    const tea = forgot('User drinks green tea');
    expect(statesForgotten('I switched to green tea', tea)).toBe(true);
    expect(statesForgotten('The tea shop was closed', tea)).toBe(false);
  });

  it('ignores facts with no content words', () => {
    expect(forgottenWording('User is the user')).toBeNull();
    expect(statesForgotten('anything', [])).toBe(false);
  });
});
