import { describe, expect, it } from 'vitest';
import { findInDatabase } from '../../../../../test/helpers/db-dump.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate, schemaVersion, type Db } from '../migrate.ts';

const dbAt = databaseAtVersionPerTest();

const SECRET = 'zebrafin7741';

/** A row as a version-11 Cairn stored it: the chat messages verbatim. */
function responseRow(db: Db, id: string, messages: unknown, previousId: string | null = null) {
  db.prepare(
    `INSERT INTO response_chain (id, agent_id, conversation_id, previous_id, messages, created_at)
     VALUES (?, 'codex', 'c', ?, ?, 1)`,
  ).run(id, previousId, typeof messages === 'string' ? messages : JSON.stringify(messages));
}

const messagesOf = (db: Db, id: string) =>
  JSON.parse(
    db.prepare('SELECT messages FROM response_chain WHERE id = ?').pluck().get(id) as string,
  ) as unknown;

/** An assistant message that only calls the `unlock` tool with these JSON arguments. */
const unlockCall = (args: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 't1', type: 'function', function: { name: 'unlock', arguments: args } }],
});

describe('migration 012 (private spans in the stored Responses chain are scrubbed)', () => {
  it('rewrites every string of the stored messages in place; keeps the chain and its shape', () => {
    const db = dbAt(11);
    responseRow(db, 'resp_1', [
      { role: 'user', content: `My door code is <private>${SECRET}</private>, remember it` },
      { role: 'assistant', content: `Noted: <PRIVATE>${SECRET}</PRIVATE>.` },
    ]);
    responseRow(
      db,
      'resp_2',
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: `Unclosed <private>${SECRET} and the rest` },
            { type: 'text', text: 'a second part survives' },
          ],
        },
        unlockCall(`{"code":"<private>${SECRET}</private>"}`),
      ],
      'resp_1',
    );
    const plain = [{ role: 'user', content: 'Talk about privacy, in words only' }];
    responseRow(db, 'resp_3', plain);
    const plainBefore = db.prepare(`SELECT * FROM response_chain WHERE id = 'resp_3'`).get();
    expect(findInDatabase(db, SECRET)).toEqual(['response_chain.messages']);

    migrate(db, 12);
    expect(schemaVersion(db)).toBe(12);

    expect(messagesOf(db, 'resp_1')).toEqual([
      { role: 'user', content: 'My door code is [private], remember it' },
      { role: 'assistant', content: 'Noted: [private].' },
    ]);
    // An unclosed span hides the rest of its own string, not the parts or messages after it.
    expect(messagesOf(db, 'resp_2')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Unclosed [private]' },
          { type: 'text', text: 'a second part survives' },
        ],
      },
      unlockCall('{"code":"[private]"}'),
    ]);
    expect(
      db.prepare('SELECT id, previous_id AS previousId FROM response_chain ORDER BY id').all(),
    ).toEqual([
      { id: 'resp_1', previousId: null },
      { id: 'resp_2', previousId: 'resp_1' },
      { id: 'resp_3', previousId: null },
    ]);
    expect(db.prepare(`SELECT * FROM response_chain WHERE id = 'resp_3'`).get()).toEqual(
      plainBefore,
    );
    expect(findInDatabase(db, SECRET)).toEqual([]);
  });

  it('scrubs a row that is not JSON as plain text', () => {
    const db = dbAt(11);
    responseRow(db, 'resp_x', `not json <private>${SECRET}</private> tail`);
    migrate(db, 12);
    expect(
      db.prepare(`SELECT messages FROM response_chain WHERE id = 'resp_x'`).pluck().get(),
    ).toBe('not json [private] tail');
  });
});
