import type { Migration } from '../migrate.ts';

// Porter-stemmed FTS5 mirrors of the three memory tables, for retrieval: "painted" must find
// "painting", "kids" must find "kid". The unstemmed tables of 001 stay for exact-word search.
// External content kept in sync by triggers, filled from the existing rows ('rebuild'), with
// 'secure-delete' so forgotten text leaves no tokens behind
// (https://www.sqlite.org/fts5.html#the_porter_tokenizer,
// https://www.sqlite.org/fts5.html#the_secure_delete_configuration_option).
export const migration002: Migration = {
  version: 2,
  name: 'stemmed_fts',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE transcript_stem_fts USING fts5 (
        content, content = 'transcript', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER transcript_stem_ai AFTER INSERT ON transcript BEGIN
        INSERT INTO transcript_stem_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER transcript_stem_ad AFTER DELETE ON transcript BEGIN
        INSERT INTO transcript_stem_fts (transcript_stem_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER transcript_stem_au AFTER UPDATE OF content ON transcript BEGIN
        INSERT INTO transcript_stem_fts (transcript_stem_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO transcript_stem_fts (rowid, content) VALUES (new.id, new.content);
      END;

      CREATE VIRTUAL TABLE episodes_stem_fts USING fts5 (
        summary, topics, entities, decisions, action_items,
        content = 'episodes', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER episodes_stem_ai AFTER INSERT ON episodes BEGIN
        INSERT INTO episodes_stem_fts (rowid, summary, topics, entities, decisions, action_items)
        VALUES (new.id, new.summary, new.topics, new.entities, new.decisions, new.action_items);
      END;
      CREATE TRIGGER episodes_stem_ad AFTER DELETE ON episodes BEGIN
        INSERT INTO episodes_stem_fts (episodes_stem_fts, rowid, summary, topics, entities, decisions, action_items)
        VALUES ('delete', old.id, old.summary, old.topics, old.entities, old.decisions, old.action_items);
      END;
      CREATE TRIGGER episodes_stem_au AFTER UPDATE OF summary, topics, entities, decisions, action_items ON episodes BEGIN
        INSERT INTO episodes_stem_fts (episodes_stem_fts, rowid, summary, topics, entities, decisions, action_items)
        VALUES ('delete', old.id, old.summary, old.topics, old.entities, old.decisions, old.action_items);
        INSERT INTO episodes_stem_fts (rowid, summary, topics, entities, decisions, action_items)
        VALUES (new.id, new.summary, new.topics, new.entities, new.decisions, new.action_items);
      END;

      CREATE VIRTUAL TABLE pinned_stem_fts USING fts5 (
        content, tags, content = 'pinned_facts', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER pinned_stem_ai AFTER INSERT ON pinned_facts BEGIN
        INSERT INTO pinned_stem_fts (rowid, content, tags) VALUES (new.id, new.content, new.tags);
      END;
      CREATE TRIGGER pinned_stem_ad AFTER DELETE ON pinned_facts BEGIN
        INSERT INTO pinned_stem_fts (pinned_stem_fts, rowid, content, tags) VALUES ('delete', old.id, old.content, old.tags);
      END;
      CREATE TRIGGER pinned_stem_au AFTER UPDATE OF content, tags ON pinned_facts BEGIN
        INSERT INTO pinned_stem_fts (pinned_stem_fts, rowid, content, tags) VALUES ('delete', old.id, old.content, old.tags);
        INSERT INTO pinned_stem_fts (rowid, content, tags) VALUES (new.id, new.content, new.tags);
      END;
    `);
    for (const fts of ['transcript_stem_fts', 'episodes_stem_fts', 'pinned_stem_fts']) {
      db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`).run();
      db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('secure-delete', 1)`).run();
    }
  },
};
