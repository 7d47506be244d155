import type { Migration } from '../migrate.ts';

// The whole data model of DESIGN §3. Times are INTEGER milliseconds since the epoch; list
// columns (topics, tags, overrides...) are JSON arrays. FTS5 tables use external content kept
// in sync by triggers (https://www.sqlite.org/fts5.html#external_content_tables), with
// 'secure-delete' on so forgotten text leaves no tokens behind in the index.
export const migration001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE transcript (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX transcript_agent_created ON transcript (agent_id, created_at);
      CREATE INDEX transcript_agent_conversation ON transcript (agent_id, conversation_id, id);
      CREATE VIRTUAL TABLE transcript_fts USING fts5 (
        content, content = 'transcript', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER transcript_ai AFTER INSERT ON transcript BEGIN
        INSERT INTO transcript_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER transcript_ad AFTER DELETE ON transcript BEGIN
        INSERT INTO transcript_fts (transcript_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER transcript_au AFTER UPDATE OF content ON transcript BEGIN
        INSERT INTO transcript_fts (transcript_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO transcript_fts (rowid, content) VALUES (new.id, new.content);
      END;

      CREATE TABLE pending_signals (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'processing', 'processed', 'dead_letter')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        first_transcript_id INTEGER,
        last_transcript_id INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX pending_signals_status ON pending_signals (status, agent_id, conversation_id);
      CREATE INDEX pending_signals_conversation ON pending_signals (agent_id, conversation_id, status);

      CREATE TABLE episodes (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        conversation_id TEXT,
        summary TEXT NOT NULL,
        topics TEXT NOT NULL DEFAULT '[]',
        entities TEXT NOT NULL DEFAULT '[]',
        decisions TEXT NOT NULL DEFAULT '[]',
        action_items TEXT NOT NULL DEFAULT '[]',
        salience REAL NOT NULL DEFAULT 0.5,
        conversation_at INTEGER NOT NULL,
        last_used INTEGER,
        last_decay_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX episodes_agent_conversation_at ON episodes (agent_id, conversation_at);
      CREATE INDEX episodes_agent_conversation ON episodes (agent_id, conversation_id);
      CREATE VIRTUAL TABLE episodes_fts USING fts5 (
        summary, topics, entities, decisions, action_items,
        content = 'episodes', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER episodes_ai AFTER INSERT ON episodes BEGIN
        INSERT INTO episodes_fts (rowid, summary, topics, entities, decisions, action_items)
        VALUES (new.id, new.summary, new.topics, new.entities, new.decisions, new.action_items);
      END;
      CREATE TRIGGER episodes_ad AFTER DELETE ON episodes BEGIN
        INSERT INTO episodes_fts (episodes_fts, rowid, summary, topics, entities, decisions, action_items)
        VALUES ('delete', old.id, old.summary, old.topics, old.entities, old.decisions, old.action_items);
      END;
      CREATE TRIGGER episodes_au AFTER UPDATE OF summary, topics, entities, decisions, action_items ON episodes BEGIN
        INSERT INTO episodes_fts (episodes_fts, rowid, summary, topics, entities, decisions, action_items)
        VALUES ('delete', old.id, old.summary, old.topics, old.entities, old.decisions, old.action_items);
        INSERT INTO episodes_fts (rowid, summary, topics, entities, decisions, action_items)
        VALUES (new.id, new.summary, new.topics, new.entities, new.decisions, new.action_items);
      END;

      CREATE TABLE pinned_facts (
        id INTEGER PRIMARY KEY,
        agent_id TEXT NOT NULL,
        content TEXT NOT NULL,
        salience REAL NOT NULL DEFAULT 0.5,
        source_count INTEGER NOT NULL DEFAULT 1,
        use_count INTEGER NOT NULL DEFAULT 0,
        last_used INTEGER,
        tags TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        pinned_by_user INTEGER NOT NULL DEFAULT 0 CHECK (pinned_by_user IN (0, 1)),
        source_episode_id INTEGER REFERENCES episodes (id) ON DELETE SET NULL,
        last_decay_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX pinned_facts_agent_status ON pinned_facts (agent_id, status, salience);
      CREATE INDEX pinned_facts_source_episode ON pinned_facts (source_episode_id);
      CREATE VIRTUAL TABLE pinned_fts USING fts5 (
        content, tags, content = 'pinned_facts', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER pinned_ai AFTER INSERT ON pinned_facts BEGIN
        INSERT INTO pinned_fts (rowid, content, tags) VALUES (new.id, new.content, new.tags);
      END;
      CREATE TRIGGER pinned_ad AFTER DELETE ON pinned_facts BEGIN
        INSERT INTO pinned_fts (pinned_fts, rowid, content, tags) VALUES ('delete', old.id, old.content, old.tags);
      END;
      CREATE TRIGGER pinned_au AFTER UPDATE OF content, tags ON pinned_facts BEGIN
        INSERT INTO pinned_fts (pinned_fts, rowid, content, tags) VALUES ('delete', old.id, old.content, old.tags);
        INSERT INTO pinned_fts (rowid, content, tags) VALUES (new.id, new.content, new.tags);
      END;

      CREATE TABLE identity (
        agent_id TEXT PRIMARY KEY,
        narrative TEXT NOT NULL DEFAULT '',
        overrides TEXT NOT NULL DEFAULT '[]',
        updated_at INTEGER
      );

      CREATE TABLE processing_log (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('distill', 'consolidate', 'embed')),
        agent_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error', 'dead_letter', 'skipped')),
        model TEXT,
        tokens INTEGER,
        duration_ms INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX processing_log_created ON processing_log (created_at);

      CREATE TABLE consolidation_runs (
        id INTEGER PRIMARY KEY,
        trigger TEXT NOT NULL CHECK (trigger IN ('timer', 'manual')),
        agent_id TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'ok', 'error')),
        counts TEXT NOT NULL DEFAULT '{}',
        snapshot TEXT NOT NULL DEFAULT '{}',
        error TEXT
      );
      CREATE INDEX consolidation_runs_started ON consolidation_runs (started_at);

      -- A rowid table, not WITHOUT ROWID: 1.5 KB embeddings would spill every row of a
      -- WITHOUT ROWID b-tree into overflow pages (measured: 2.3x the file size, 3.7x slower writes).
      CREATE TABLE vectors (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('transcript', 'episode', 'pinned')),
        row_id INTEGER NOT NULL,
        agent_id TEXT NOT NULL,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        embedding BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (kind, row_id)
      );
      CREATE INDEX vectors_agent_kind ON vectors (agent_id, kind);

      -- Deleting a memory row removes its vector too (DESIGN §8: deletes remove vectors).
      CREATE TRIGGER transcript_vector_ad AFTER DELETE ON transcript BEGIN
        DELETE FROM vectors WHERE kind = 'transcript' AND row_id = old.id;
      END;
      CREATE TRIGGER episodes_vector_ad AFTER DELETE ON episodes BEGIN
        DELETE FROM vectors WHERE kind = 'episode' AND row_id = old.id;
      END;
      CREATE TRIGGER pinned_vector_ad AFTER DELETE ON pinned_facts BEGIN
        DELETE FROM vectors WHERE kind = 'pinned' AND row_id = old.id;
      END;

      -- Settings (validated JSON values) and small engine state (access token, timers).
      -- Both live inside the encrypted file: provider API keys are never in plain config.
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    for (const fts of ['transcript_fts', 'episodes_fts', 'pinned_fts']) {
      db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('secure-delete', 1)`).run();
    }
  },
};
