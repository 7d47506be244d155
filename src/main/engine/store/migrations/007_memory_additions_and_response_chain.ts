import type { Migration } from '../migrate.ts';

// Two tables for the wire formats of issue 13 (DESIGN §9).
//
// `memory_additions`: the exact bytes Cairn added to a user message, per conversation, so that
// when the client re-sends that message in a later request (clients resend the whole history
// and never see what was added) the same bytes go back in and the provider's prompt cache
// still matches the prefix it saw. Keyed by the message's position and a hash of its original
// content: an edited message (other hash) gets nothing re-inserted. WITHOUT ROWID: every
// lookup is by the primary key's prefix (agent, conversation).
//
// `response_chain`: OpenAI Responses' `previous_response_id` for a translated upstream (one
// that speaks only chat completions): each response stores the chat messages it added (its
// input and its output) and the id it continued, so a later request can be rebuilt. Agent ''
// is a request without the agent header; a lookup must match the agent it was stored under.
export const migration007: Migration = {
  version: 7,
  name: 'memory_additions_and_response_chain',
  up(db) {
    db.exec(`
      CREATE TABLE memory_additions (
        agent_id        TEXT    NOT NULL,
        conversation_id TEXT    NOT NULL,
        message_index   INTEGER NOT NULL,
        content_hash    TEXT    NOT NULL,
        shape           TEXT    NOT NULL CHECK (shape IN ('suffix', 'part')),
        added           TEXT    NOT NULL,
        section         TEXT    NOT NULL,
        tokens          INTEGER NOT NULL,
        created_at      INTEGER NOT NULL,
        PRIMARY KEY (agent_id, conversation_id, message_index, content_hash)
      ) WITHOUT ROWID;
      CREATE TABLE response_chain (
        id              TEXT    PRIMARY KEY,
        agent_id        TEXT    NOT NULL,
        conversation_id TEXT,
        previous_id     TEXT,
        messages        TEXT    NOT NULL,
        created_at      INTEGER NOT NULL
      );
      CREATE INDEX response_chain_created ON response_chain (created_at);
    `);
  },
};
