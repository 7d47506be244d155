// Export and import of memory (DESIGN §9, GET /memory/export and POST /memory/import): the
// size of an export before it is built, which imported conversations are already stored, and
// the restore of a Cairn export's facts, episodes and identity with their own values (the
// transcript is written by the transcript writer like every other turn). Every query is
// scoped by agent_id; text has its `<private>` spans replaced before it is written.
import { stripPrivate } from '../text/private.ts';
import type { Db } from './db.ts';
import { type EpisodeInput, insertEpisode } from './episodes.ts';
import { appendIdentityOverrides, getIdentity, putIdentity } from './identity.ts';

/**
 * Bytes of JSON an export of these agents would take, from one aggregate per table (the text
 * is not read into memory): the stored text plus a fixed allowance per row for its other
 * fields and keys (a transcript row's id, role, agent, conversation and date come to about
 * 150 bytes of JSON; facts and episodes carry more fields). An estimate, good enough to
 * refuse an export before building it.
 */
export function exportSizeEstimate(db: Db, agentIds: readonly string[]): number {
  const ids = JSON.stringify(agentIds);
  const sum = (sql: string): number => (db.prepare(sql).get(ids) as { n: number | null }).n ?? 0;
  return (
    sum(
      `SELECT sum(length(content) + length(conversation_id) + 150) AS n FROM transcript
        WHERE agent_id IN (SELECT value FROM json_each(?))`,
    ) +
    sum(
      `SELECT sum(length(content) + length(tags) + coalesce(length(subject), 0)
                + coalesce(length(object), 0) + coalesce(length(source_ids), 0) + 450) AS n
         FROM pinned_facts WHERE agent_id IN (SELECT value FROM json_each(?))`,
    ) +
    sum(
      `SELECT sum(length(summary) + length(topics) + length(entities) + length(decisions)
                + length(action_items) + 300) AS n
         FROM episodes WHERE agent_id IN (SELECT value FROM json_each(?))`,
    ) +
    sum(
      `SELECT sum(length(narrative) + length(overrides) + 100) AS n FROM identity
        WHERE agent_id IN (SELECT value FROM json_each(?))`,
    )
  );
}

/**
 * The time of the newest stored message of each of these conversations of the agent (absent:
 * nothing stored yet). An import stores only what is newer, so importing the same file twice
 * adds nothing and a later export of a conversation that went on adds only its new messages.
 */
export function latestMessageTimes(
  db: Db,
  agentId: string,
  conversationIds: readonly string[],
): Map<string, number> {
  if (conversationIds.length === 0) return new Map();
  // json_each first, CROSS JOIN keeps that loop order: one index range per conversation
  // (transcript_agent_conversation), never a walk of all the agent's rows.
  const rows = db
    .prepare(
      `SELECT t.conversation_id AS id, max(t.created_at) AS at
         FROM json_each(?) AS j CROSS JOIN transcript t
           ON t.agent_id = ? AND t.conversation_id = j.value
        GROUP BY t.conversation_id`,
    )
    .all(JSON.stringify([...new Set(conversationIds)]), agentId) as { id: string; at: number }[];
  return new Map(rows.map((r) => [r.id, r.at]));
}

/** An episode of a Cairn export, times in ms. */
export interface RestoredEpisode extends Omit<EpisodeInput, 'agentId' | 'lastUsed'> {
  /** Its id in the export, so facts can point at the restored row. */
  exportId: number;
  lastUsed: number | null;
}

/** A pinned fact of a Cairn export, times in ms. */
export interface RestoredFact {
  content: string;
  salience: number;
  sourceCount: number;
  useCount: number;
  lastUsed: number | null;
  tags: string[];
  status: 'active' | 'disabled';
  pinnedByUser: boolean;
  createdAt: number;
  updatedAt: number;
  typed: { subject: string; relation: string; object: string } | null;
  validFrom: number | null;
  supersededAt: number | null;
  conversationId: string | null;
  /** Transcript ids in the export, mapped through `transcriptIds` when written. */
  sourceIds: number[] | null;
  /** Episode id in the export. */
  sourceEpisodeId: number | null;
}

export interface RestoreInput {
  agentId: string;
  narrative: string;
  overrides: string[];
  episodes: RestoredEpisode[];
  facts: RestoredFact[];
  /** Transcript id in the export → the id of the row written for it here. */
  transcriptIds: ReadonlyMap<number, number>;
}

export interface RestoreResult {
  /** Ids of the rows written (for embedding), not of those already there. */
  episodeIds: number[];
  factIds: number[];
}

/** The same text, ignoring case and spacing: a fact already stored is not stored twice. */
const sameText = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

function restoreEpisodes(
  db: Db,
  input: RestoreInput,
  now: number,
): { written: number[]; idOf: Map<number, number> } {
  const idOf = new Map<number, number>();
  const written: number[] = [];
  const existing = db.prepare(
    'SELECT id FROM episodes WHERE agent_id = ? AND conversation_id = ? ORDER BY id LIMIT 1',
  );
  const existingSummary = db.prepare(
    'SELECT id FROM episodes WHERE agent_id = ? AND conversation_id IS NULL AND summary = ? LIMIT 1',
  );
  for (const e of input.episodes) {
    const found = (
      e.conversationId === null
        ? existingSummary.get(input.agentId, stripPrivate(e.summary))
        : existing.get(input.agentId, e.conversationId)
    ) as { id: number } | undefined;
    if (found) {
      idOf.set(e.exportId, found.id);
      continue;
    }
    // created_at is when Cairn stores the row (now): retention is measured from it, never from
    // the dates inside imported history (DESIGN §8). conversation_at keeps the episode's date.
    const id = insertEpisode(db, { ...e, agentId: input.agentId }, now);
    idOf.set(e.exportId, id);
    written.push(id);
  }
  return { written, idOf };
}

function restoreFacts(
  db: Db,
  input: RestoreInput,
  episodeIdOf: ReadonlyMap<number, number>,
  now: number,
): number[] {
  // Current facts and history apart: a superseded fact's text may well be current again.
  const keyOf = (content: string, superseded: boolean) =>
    (superseded ? 'history:' : 'current:') + sameText(content);
  const seen = new Set(
    (
      db
        .prepare(
          'SELECT content, superseded_at IS NOT NULL AS superseded FROM pinned_facts WHERE agent_id = ?',
        )
        .all(input.agentId) as { content: string; superseded: number }[]
    ).map((r) => keyOf(r.content, r.superseded === 1)),
  );
  // Decay is measured from last_decay_at: from now, so the exported salience (already decayed
  // where it was exported) is not decayed again for the time before the import.
  const insert = db.prepare(
    `INSERT INTO pinned_facts (agent_id, content, salience, source_count, use_count, last_used,
       tags, status, pinned_by_user, source_episode_id, last_decay_at, created_at, updated_at,
       subject, relation, object, valid_from, superseded_at, conversation_id, source_ids)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ids: number[] = [];
  for (const f of input.facts) {
    const content = stripPrivate(f.content);
    const key = keyOf(content, f.supersededAt !== null);
    if (seen.has(key)) continue;
    seen.add(key);
    const sourceIds =
      f.sourceIds
        ?.map((id) => input.transcriptIds.get(id))
        .filter((id): id is number => id !== undefined) ?? null;
    const info = insert.run(
      input.agentId,
      content,
      f.salience,
      f.sourceCount,
      f.useCount,
      f.lastUsed,
      JSON.stringify(f.tags.map(stripPrivate)),
      f.status,
      f.pinnedByUser ? 1 : 0,
      f.sourceEpisodeId === null ? null : (episodeIdOf.get(f.sourceEpisodeId) ?? null),
      now,
      f.createdAt,
      f.updatedAt,
      f.typed ? stripPrivate(f.typed.subject) : null,
      f.typed?.relation ?? null,
      f.typed ? stripPrivate(f.typed.object) : null,
      f.validFrom,
      f.supersededAt,
      f.conversationId,
      sourceIds === null ? null : JSON.stringify(sourceIds),
    );
    ids.push(Number(info.lastInsertRowid));
  }
  return ids;
}

function restoreIdentity(db: Db, input: RestoreInput, now: number): void {
  // The agent's own narrative wins over the imported one; overrides are merged.
  if (input.narrative.trim() !== '' && getIdentity(db, input.agentId).narrative.trim() === '') {
    putIdentity(db, input.agentId, { narrative: input.narrative }, now);
  }
  appendIdentityOverrides(db, input.agentId, input.overrides, now);
}

/**
 * Restores a Cairn export's episodes, facts and identity for one agent, in one transaction
 * (all or nothing). What the agent already has is kept and not duplicated: an episode of a
 * conversation it already has an episode for, a fact with the same text as one it has.
 */
export function restoreMemory(db: Db, input: RestoreInput, now: number): RestoreResult {
  return db.transaction(() => {
    const episodes = restoreEpisodes(db, input, now);
    const factIds = restoreFacts(db, input, episodes.idOf, now);
    restoreIdentity(db, input, now);
    return { episodeIds: episodes.written, factIds };
  })();
}
