import { describe, expect, it } from 'vitest';
import { stripSystemReminders } from './system-reminders.ts';

const reminder = (body: string) => `<system-reminder>\n${body}\n</system-reminder>`;

describe('stripSystemReminders', () => {
  it('removes the blocks a client adds before, after and between the user words', () => {
    const text = [
      reminder('As you answer, use this context: # claudeMd\nAlways run the linter.'),
      'Where did I say the backups live?',
      reminder('The todo list is empty.'),
    ].join('\n');
    expect(stripSystemReminders(text)).toBe('Where did I say the backups live?');
    expect(
      stripSystemReminders(`First line\n\n${reminder('note')}  \n\n\nSecond line ${reminder('x')}`),
    ).toBe('First line\n\nSecond line');
  });

  it('leaves nothing when the message is only reminders', () => {
    expect(stripSystemReminders(`${reminder('a')}\n${reminder('b')}`)).toBe('');
  });

  it('matches the tag in any case and with attributes; each block ends at its own closing tag', () => {
    expect(
      stripSystemReminders(
        '<System-Reminder kind="todo">one</system-reminder>keep<system-reminder>two</system-reminder >',
      ),
    ).toBe('keep');
  });

  it('keeps an opening tag without its closing one, and text without blocks, as they are', () => {
    const quoted = 'What does <system-reminder> mean in Claude Code?';
    expect(stripSystemReminders(quoted)).toBe(quoted);
    const plain = '  Plain text\n\n\n with its own spacing  ';
    expect(stripSystemReminders(plain)).toBe(plain);
  });
});
