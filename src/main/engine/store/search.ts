// Retrieval queries of the read path (DESIGN §7). Every query is scoped by agent_id; the
// query text only ever reaches SQLite as a bound parameter (an FTS5 MATCH expression built
// from sanitised terms by memory/text.ts, or escaped LIKE patterns).
import type { Db } from './db.ts';
import { cachedStatement } from './statement-cache.ts';
import type { TranscriptHeadIndex } from './transcript-head.ts';

const prepared = cachedStatement;

export type FtsScope = 'transcript' | 'episodes' | 'pinned';

export interface StoredHit {
  id: number;
  /** Transcript: the message; episodes: the summary; pinned: the fact. */
  content: string;
  /** ms since the epoch: created_at (transcript, pinned) or conversation_at (episodes). */
  created_at: number;
  conversation_id: string | null;
  /** Transcript only: user / assistant. */
  role: string | null;
  /** Higher is better (negated bm25, or a term count for LIKE). */
  score: number;
}

export interface FtsQuery {
  agentId: string;
  /** From buildMatchExpression: never raw user text. */
  match: string;
  /** Only rows at or after this time (ms), or null. */
  since: number | null;
  limit: number;
  /**
   * Transcript only: BM25 scores just the most recent this-many matches (by rowid). On a
   * large memory a query made of common words matches tens of thousands of rows, and
   * scoring each costs far more than finding it.
   */
  recentMatches?: number;
  /** Transcript: the head query answered from memory where it can (store/transcript-head.ts). */
  head?: TranscriptHeadIndex;
}

interface Row {
  id: number;
  content: string;
  created_at: number;
  conversation_id: string | null;
  role?: string | null;
  rank: number;
  /** Transcript rows read with their neighbours (ftsRows). */
  prev?: number | null;
  next?: number | null;
}

const toHit = (r: Row): StoredHit => ({
  id: r.id,
  content: r.content,
  created_at: r.created_at,
  conversation_id: r.conversation_id,
  role: r.role ?? null,
  score: -r.rank,
});

// The FTS table comes first (CROSS JOIN fixes the loop order, https://www.sqlite.org/optoverview.html#crossjoin):
// otherwise the planner walks all of the agent's rows by index and probes FTS per row.
// bm25() column weights (https://www.sqlite.org/fts5.html#the_bm25_function): for episodes
// the summary and entities count most; for pinned facts the fact counts more than its tags.
const SQL: Record<FtsScope, string> = {
  transcript: `
    SELECT t.id, t.content, t.created_at, t.conversation_id, t.role,
           bm25(transcript_stem_fts) AS rank
    FROM transcript_stem_fts CROSS JOIN transcript t ON t.id = transcript_stem_fts.rowid
    WHERE transcript_stem_fts MATCH @match AND t.agent_id = @agentId
      AND t.role IN ('user', 'assistant') AND t.created_at >= @since
    ORDER BY rank LIMIT @limit`,
  episodes: `
    SELECT e.id, e.summary AS content, e.conversation_at AS created_at, e.conversation_id,
           bm25(episodes_stem_fts, 1.0, 0.8, 1.2, 0.6, 0.4) AS rank
    FROM episodes_stem_fts CROSS JOIN episodes e ON e.id = episodes_stem_fts.rowid
    WHERE episodes_stem_fts MATCH @match AND e.agent_id = @agentId AND e.conversation_at >= @since
    ORDER BY rank LIMIT @limit`,
  pinned: `
    SELECT p.id, p.content, p.created_at, e.conversation_id,
           bm25(pinned_stem_fts, 1.0, 0.4) AS rank
    FROM pinned_stem_fts CROSS JOIN pinned_facts p ON p.id = pinned_stem_fts.rowid
    LEFT JOIN episodes e ON e.id = p.source_episode_id AND e.agent_id = p.agent_id
    WHERE pinned_stem_fts MATCH @match AND p.agent_id = @agentId AND p.status = 'active' AND p.superseded_at IS NULL
      AND p.created_at >= @since
    ORDER BY rank LIMIT @limit`,
};

/** The best `inner` transcript matches of all agents, by BM25 (FTS index only, no row reads). */
const TRANSCRIPT_TOP_SQL = `
  SELECT rowid AS id, bm25(transcript_stem_fts) AS rank FROM transcript_stem_fts
  WHERE transcript_stem_fts MATCH @match ORDER BY rank LIMIT @inner`;
/** The same over only the most recent `window` matches (FTS5 walks rowids backwards). */
const TRANSCRIPT_TOP_RECENT_SQL = `
  SELECT id, rank FROM (
    SELECT rowid AS id, bm25(transcript_stem_fts) AS rank FROM transcript_stem_fts
    WHERE transcript_stem_fts MATCH @match ORDER BY rowid DESC LIMIT @window)
  ORDER BY rank LIMIT @inner`;
/**
 * The turns before and after a transcript row `t` of the same agent and conversation. A
 * conversation's turns are recorded together, so the row just before (id − 1) or after
 * (id + 1) is usually its neighbour: when it exists and belongs to the same conversation it
 * is the nearest one there, found on the page `t` was read from. Otherwise (interleaved
 * conversations, deleted rows, a conversation's ends) two index seeks on (agent_id,
 * conversation_id, id) answer. Evaluated only for the rows returned; coalesce() stops at its
 * first non-null argument.
 */
const NEIGHBOUR_COLUMNS = `
  coalesce(
    (SELECT a.id FROM transcript a WHERE a.id = t.id - 1 AND a.agent_id = t.agent_id
       AND a.conversation_id = t.conversation_id),
    (SELECT max(p.id) FROM transcript p WHERE p.agent_id = t.agent_id
       AND p.conversation_id = t.conversation_id AND p.id < t.id)) AS prev,
  coalesce(
    (SELECT b.id FROM transcript b WHERE b.id = t.id + 1 AND b.agent_id = t.agent_id
       AND b.conversation_id = t.conversation_id),
    (SELECT min(n.id) FROM transcript n WHERE n.agent_id = t.agent_id
       AND n.conversation_id = t.conversation_id AND n.id > t.id)) AS next`;

/** Those matches' rows, kept when they belong to the agent (and pass the filters). */
const transcriptRowsSql = (neighbours: boolean) => `
  SELECT t.id, t.content, t.created_at, t.conversation_id, t.role, j.value ->> '$[1]' AS rank
    ${neighbours ? `, ${NEIGHBOUR_COLUMNS}` : ''}
  FROM json_each(@hits) AS j CROSS JOIN transcript t ON t.id = j.value ->> '$[0]'
  WHERE t.agent_id = @agentId AND t.role IN ('user', 'assistant') AND t.created_at >= @since`;
const TRANSCRIPT_ROWS_SQL = transcriptRowsSql(false);
const TRANSCRIPT_ROWS_NEIGHBOURS_SQL = transcriptRowsSql(true);

/**
 * The agent's transcript turns of [from, to) that match, best first by BM25. FTS5 walks only
 * the rowids the window's rows span (found through the (agent_id, created_at) index), so a
 * day's turns cost what the day holds, not what the memory holds. Throws SqliteError on a bad
 * MATCH expression.
 */
export function searchTranscriptWithin(
  db: Db,
  q: { agentId: string; match: string; from: number; to: number; limit: number },
): StoredHit[] {
  const span = prepared(
    db,
    `SELECT min(id) AS lo, max(id) AS hi FROM transcript
      WHERE agent_id = @agentId AND created_at >= @from AND created_at < @to`,
  ).get({ agentId: q.agentId, from: q.from, to: q.to }) as { lo: number | null; hi: number | null };
  if (span.lo === null || span.hi === null) return [];
  const rows = prepared(db, TRANSCRIPT_WITHIN_SQL).all({ ...q, lo: span.lo, hi: span.hi }) as Row[];
  return rows.map(toHit);
}

/**
 * The agent's episodes of conversations held in [from, to), newest first (the
 * (agent_id, conversation_at) index), as hits scored 0: what a question about that day
 * ("what did we talk about yesterday?") asks for, whatever its words.
 */
export function episodesWithin(
  db: Db,
  q: { agentId: string; from: number; to: number; limit: number },
): StoredHit[] {
  const rows = prepared(
    db,
    `SELECT id, summary AS content, conversation_at AS created_at, conversation_id, NULL AS role,
            0 AS rank
       FROM episodes WHERE agent_id = @agentId AND conversation_at >= @from AND conversation_at < @to
      ORDER BY conversation_at DESC, id DESC LIMIT @limit`,
  ).all(q) as Row[];
  return rows.map(toHit);
}

/**
 * The agent's chat turns of [from, to) in the order they were said (the (agent_id, created_at)
 * index), as hits scored 0: a day's conversation read back.
 */
export function transcriptWithin(
  db: Db,
  q: { agentId: string; from: number; to: number; limit: number },
): StoredHit[] {
  const rows = prepared(
    db,
    `SELECT id, content, created_at, conversation_id, role, 0 AS rank FROM transcript
      WHERE agent_id = @agentId AND created_at >= @from AND created_at < @to
        AND role IN ('user', 'assistant')
      ORDER BY created_at, id LIMIT @limit`,
  ).all(q) as Row[];
  return rows.map(toHit);
}

const TRANSCRIPT_WITHIN_SQL = `
  SELECT t.id, t.content, t.created_at, t.conversation_id, t.role,
         bm25(transcript_stem_fts) AS rank
  FROM transcript_stem_fts CROSS JOIN transcript t ON t.id = transcript_stem_fts.rowid
  WHERE transcript_stem_fts MATCH @match AND transcript_stem_fts.rowid BETWEEN @lo AND @hi
    AND t.agent_id = @agentId AND t.role IN ('user', 'assistant')
    AND t.created_at >= @from AND t.created_at < @to
  ORDER BY rank LIMIT @limit`;

/** BM25-ranked full-text search of one scope. Throws SqliteError on a bad MATCH expression. */
export function searchFts(db: Db, scope: FtsScope, q: FtsQuery): StoredHit[] {
  return ftsRows(db, scope, q, false).map(toHit);
}

/**
 * searchFts's rows; with `neighbours`, transcript rows read from the FTS head also carry the
 * ids of the turns around them (`prev`, `next`: null at a conversation's ends). Rows the
 * agent-filtered fallback query found carry none (undefined).
 */
function ftsRows(db: Db, scope: FtsScope, q: FtsQuery, neighbours: boolean): Row[] {
  const params = { match: q.match, agentId: q.agentId, since: q.since ?? 0, limit: q.limit };
  if (scope === 'transcript') {
    // Reading rows is the expensive part of a large match set (every row lookup decrypts a
    // page), so rank in the FTS index first and read only the head. When the head does not
    // hold enough of this agent's rows (a database shared by many agents), the exact
    // agent-filtered query below answers instead.
    const inner = q.limit * 3;
    const window = q.recentMatches === undefined ? null : Math.max(inner, q.recentMatches);
    const top =
      q.head?.head(q.match, inner, window) ??
      ((window === null
        ? prepared(db, TRANSCRIPT_TOP_SQL).all({ match: q.match, inner })
        : prepared(db, TRANSCRIPT_TOP_RECENT_SQL).all({ match: q.match, inner, window })) as {
        id: number;
        rank: number;
      }[]);
    const read = (head: typeof top): Row[] =>
      prepared(db, neighbours ? TRANSCRIPT_ROWS_NEIGHBOURS_SQL : TRANSCRIPT_ROWS_SQL).all({
        hits: JSON.stringify(head.map((r) => [r.id, r.rank])),
        agentId: q.agentId,
        since: q.since ?? 0,
      }) as Row[];
    // The first `limit` matches usually all pass the filters (one agent's memory): then they
    // are the answer, and the rest of the head is never read.
    const rows = read(top.slice(0, q.limit));
    if (rows.length < q.limit && top.length > q.limit) rows.push(...read(top.slice(q.limit)));
    rows.sort((a, b) => a.rank - b.rank);
    if (rows.length >= q.limit || top.length < inner) return rows.slice(0, q.limit);
  }
  return prepared(db, SQL[scope]).all(params) as Row[];
}

/**
 * How many rows of all agents contain each term (FTS5 document frequency), counted up to `cap`
 * (a near-ubiquitous term is not walked to the end), for dropping such terms from large
 * searches. `matches` come from buildMatchExpression, one term each; the counts are in order.
 */
export function ftsDocumentFrequencies(
  db: Db,
  scope: FtsScope,
  matches: readonly string[],
  cap: number,
): number[] {
  const table = FTS_TABLE[scope];
  const count = prepared(
    db,
    `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`,
  );
  const limit = Math.max(1, Math.floor(cap));
  return matches.map((match) => (count.get(match, limit) as { n: number }).n);
}

/**
 * Roughly how many rows the scope's table holds, all agents: the largest id (O(1) on the
 * primary key; deleted rows make it an overestimate, which is fine for term statistics).
 */
export function ftsRowCount(db: Db, scope: FtsScope): number {
  const table = { transcript: 'transcript', episodes: 'episodes', pinned: 'pinned_facts' }[scope];
  return (prepared(db, `SELECT coalesce(max(id), 0) AS n FROM ${table}`).get() as { n: number }).n;
}

const FTS_TABLE: Record<FtsScope, string> = {
  transcript: 'transcript_stem_fts',
  episodes: 'episodes_stem_fts',
  pinned: 'pinned_stem_fts',
};

const LIKE_SQL: Record<FtsScope, { text: string; at: string; sql: string }> = {
  transcript: {
    text: 't.content',
    at: 't.created_at',
    sql: `SELECT t.id, t.content, t.created_at, t.conversation_id, t.role, %SCORE% AS rank
          FROM transcript t WHERE t.agent_id = @agentId AND t.role IN ('user', 'assistant')
            AND t.created_at >= @since AND (%ANY%)`,
  },
  episodes: {
    text: `(e.summary || ' ' || e.topics || ' ' || e.entities)`,
    at: 'e.conversation_at',
    sql: `SELECT e.id, e.summary AS content, e.conversation_at AS created_at, e.conversation_id,
            %SCORE% AS rank
          FROM episodes e WHERE e.agent_id = @agentId AND e.conversation_at >= @since AND (%ANY%)`,
  },
  pinned: {
    text: `(p.content || ' ' || p.tags)`,
    at: 'p.created_at',
    sql: `SELECT p.id, p.content, p.created_at, e.conversation_id, %SCORE% AS rank
          FROM pinned_facts p
          LEFT JOIN episodes e ON e.id = p.source_episode_id AND e.agent_id = p.agent_id
          WHERE p.agent_id = @agentId AND p.status = 'active' AND p.superseded_at IS NULL AND p.created_at >= @since
            AND (%ANY%)`,
  },
};

/**
 * Substring search, the last fallback (no FTS5, or FTS found nothing): rows containing any
 * of the terms, ranked by how many they contain, newest first. Terms are bound as escaped
 * LIKE patterns; only the number of placeholders depends on the input.
 */
export function searchLike(
  db: Db,
  scope: FtsScope,
  q: { agentId: string; terms: readonly string[]; since: number | null; limit: number },
): StoredHit[] {
  const terms = q.terms.slice(0, 12);
  if (terms.length === 0) return [];
  const spec = LIKE_SQL[scope];
  const params: Record<string, unknown> = {
    agentId: q.agentId,
    since: q.since ?? 0,
    limit: q.limit,
  };
  const likes: string[] = [];
  terms.forEach((t, i) => {
    params[`t${i}`] = `%${t.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
    likes.push(`${spec.text} LIKE @t${i} ESCAPE '\\'`);
  });
  const score = `-(${likes.map((l) => `(${l})`).join(' + ')})`;
  const sql =
    spec.sql.replace('%SCORE%', score).replace('%ANY%', likes.join(' OR ')) +
    ` ORDER BY rank, ${spec.at} DESC LIMIT @limit`;
  const rows = prepared(db, sql).all(params) as Row[];
  return rows.map(toHit);
}

export interface TranscriptNeighbours {
  prev: number | null;
  next: number | null;
}

/**
 * For each transcript row, the previous and next row of the same agent and conversation (the
 * turns around it): two index seeks each on (agent_id, conversation_id, id).
 */
export function transcriptNeighbours(
  db: Db,
  agentId: string,
  ids: readonly number[],
): Map<number, TranscriptNeighbours> {
  const out = new Map<number, TranscriptNeighbours>();
  if (ids.length === 0) return out;
  const rows = prepared(
    db,
    `SELECT t.id, ${NEIGHBOUR_COLUMNS}
       FROM json_each(?) AS j CROSS JOIN transcript t ON t.id = j.value
       WHERE t.agent_id = ?`,
  ).all(JSON.stringify(ids), agentId) as {
    id: number;
    prev: number | null;
    next: number | null;
  }[];
  for (const r of rows) out.set(r.id, { prev: r.prev, next: r.next });
  return out;
}

// Looked up by primary key from the id list (json_each first, CROSS JOIN keeps that order):
// never a scan of the agent's rows.
const BY_IDS: Record<FtsScope, string> = {
  transcript: `SELECT t.id, t.content, t.created_at, t.conversation_id, t.role, 0 AS rank
    FROM json_each(@ids) AS j CROSS JOIN transcript t ON t.id = j.value
    WHERE t.agent_id = @agentId AND t.role IN ('user', 'assistant')`,
  episodes: `SELECT e.id, e.summary AS content, e.conversation_at AS created_at, e.conversation_id,
      0 AS rank
    FROM json_each(@ids) AS j CROSS JOIN episodes e ON e.id = j.value
    WHERE e.agent_id = @agentId`,
  pinned: `SELECT p.id, p.content, p.created_at, e.conversation_id, 0 AS rank
    FROM json_each(@ids) AS j CROSS JOIN pinned_facts p ON p.id = j.value
    LEFT JOIN episodes e ON e.id = p.source_episode_id AND e.agent_id = p.agent_id
    WHERE p.agent_id = @agentId AND p.status = 'active' AND p.superseded_at IS NULL`,
};

/**
 * Rows of this agent by id (vector hits, neighbouring turns). Ids of another agent, deleted
 * rows, disabled and superseded facts are silently absent: a stale vector can never leak them.
 */
export function getRowsByIds(
  db: Db,
  scope: FtsScope,
  agentId: string,
  ids: readonly number[],
): Map<number, StoredHit> {
  const out = new Map<number, StoredHit>();
  if (ids.length === 0) return out;
  const rows = prepared(db, BY_IDS[scope]).all({ ids: JSON.stringify(ids), agentId }) as Row[];
  for (const r of rows) out.set(r.id, { ...toHit(r), score: 0 });
  return out;
}

/** Everything ranking one scope needs, asked for in one call (searchCandidates). */
export interface CandidateQuery {
  agentId: string;
  /**
   * MATCH expressions from buildMatchExpression (never raw user text), tried in order while
   * fewer than `enough` rows were found; each later one only adds rows the earlier missed.
   * null entries are skipped.
   */
  matches: readonly (string | null)[];
  enough: number;
  /** Terms for the LIKE scan when no MATCH found anything; null: no LIKE scan. */
  likeTerms: readonly string[] | null;
  /** Only rows at or after this time (ms), or null. */
  since: number | null;
  /** Rows per MATCH expression (and for the LIKE scan). */
  limit: number;
  /** Transcript: see FtsQuery.recentMatches. */
  recentMatches?: number;
  /** Transcript: see FtsQuery.head. */
  head?: TranscriptHeadIndex;
  /**
   * Transcript: the turns around the first `lookups` hits, and the rows of those around the
   * first `expand` hits (they become candidates of their own).
   */
  neighbours?: { lookups: number; expand: number };
  /** Further rows to read by id (vector hits). */
  ids?: readonly number[];
}

export interface Candidates {
  /** BM25 (or LIKE) hits, best first. */
  hits: StoredHit[];
  /** Transcript: the previous and next turn of each of the first `neighbours.lookups` hits. */
  neighbours: Map<number, TranscriptNeighbours>;
  /**
   * Rows read by id that are not hits: the expanded neighbours, then `ids`, in that order,
   * each of this agent, searchable (getRowsByIds) and not older than `since`.
   */
  rows: Map<number, StoredHit>;
  /** FTS5 failed (missing or broken) for this message: why, for the caller's log. */
  ftsError: string | null;
}

/**
 * The candidates of one scope and everything their ranking reads: BM25 hits (wider MATCH
 * expressions and the LIKE scan as fallbacks), for the transcript the turns around them, and
 * the rows of further ids. One call, so a search crosses into the store once with its terms
 * and comes back with every row ranking needs; the statements are the same as asking for
 * each part alone.
 */
export function searchCandidates(db: Db, scope: FtsScope, q: CandidateQuery): Candidates {
  let hits: StoredHit[] = [];
  let ftsError: string | null = null;
  // Transcript rows read from the FTS head come with their neighbours (same statement).
  const wantNeighbours = scope === 'transcript' && q.neighbours !== undefined;
  const around = new Map<number, TranscriptNeighbours>();
  for (const match of q.matches) {
    if (hits.length >= q.enough) break;
    if (match === null) continue;
    let more: StoredHit[];
    try {
      const rows = ftsRows(
        db,
        scope,
        {
          agentId: q.agentId,
          match,
          since: q.since,
          limit: q.limit,
          ...(q.recentMatches === undefined ? {} : { recentMatches: q.recentMatches }),
          ...(q.head === undefined ? {} : { head: q.head }),
        },
        wantNeighbours,
      );
      for (const r of rows) {
        if (r.prev !== undefined) around.set(r.id, { prev: r.prev, next: r.next ?? null });
      }
      more = rows.map(toHit);
    } catch (err) {
      // The expression holds quoted words only, so this means FTS5 itself is missing or broken.
      ftsError = err instanceof Error ? err.message : String(err);
      continue;
    }
    const seen = new Set(hits.map((h) => h.id));
    hits = hits.length === 0 ? more : [...hits, ...more.filter((h) => !seen.has(h.id))];
  }
  if (hits.length === 0 && q.likeTerms !== null) {
    hits = searchLike(db, scope, {
      agentId: q.agentId,
      terms: q.likeTerms,
      since: q.since,
      limit: q.limit,
    });
  }

  const found = new Set(hits.map((h) => h.id));
  const neighbours = new Map<number, TranscriptNeighbours>();
  if (wantNeighbours) {
    const head = hits.slice(0, q.neighbours?.lookups ?? 0);
    // Hits of the LIKE scan or of the agent-filtered query came without them.
    const asked = transcriptNeighbours(
      db,
      q.agentId,
      head.filter((h) => !around.has(h.id)).map((h) => h.id),
    );
    for (const h of head) {
      const n = around.get(h.id) ?? asked.get(h.id);
      if (n) neighbours.set(h.id, n);
    }
  }
  const wanted: number[] = [];
  const expand = new Set(hits.slice(0, q.neighbours?.expand ?? 0).map((h) => h.id));
  for (const [id, n] of neighbours) {
    if (!expand.has(id)) continue;
    for (const other of [n.prev, n.next]) {
      if (other !== null && !found.has(other)) wanted.push(other);
    }
  }
  for (const id of q.ids ?? []) if (!found.has(id)) wanted.push(id);
  const rows = new Map<number, StoredHit>();
  for (const [id, row] of getRowsByIds(db, scope, q.agentId, wanted)) {
    if (q.since === null || row.created_at >= q.since) rows.set(id, row);
  }
  return { hits, neighbours, rows, ftsError };
}

/** Records that these facts were used in an answer (use_count + 1, last_used = now). */
export function bumpPinnedUsage(
  db: Db,
  agentId: string,
  ids: readonly number[],
  now: number,
): void {
  bumpUsage(
    db,
    'UPDATE pinned_facts SET use_count = use_count + 1, last_used = ?',
    agentId,
    ids,
    now,
  );
}

/** Records that these episodes were used in an answer (last_used = now). */
export function bumpEpisodeUsage(
  db: Db,
  agentId: string,
  ids: readonly number[],
  now: number,
): void {
  bumpUsage(db, 'UPDATE episodes SET last_used = ?', agentId, ids, now);
}

/** `update` (one of the two constant texts above) for this agent's rows among `ids`. */
function bumpUsage(db: Db, update: string, agentId: string, ids: readonly number[], now: number) {
  if (ids.length === 0) return;
  prepared(db, `${update} WHERE id IN (SELECT value FROM json_each(?)) AND +agent_id = ?`).run(
    now,
    JSON.stringify(ids),
    agentId,
  );
}

/** The agent's most salient active facts (identity / pinned sections without a query match). */
export function topPinnedFacts(db: Db, agentId: string, limit: number): StoredHit[] {
  const rows = prepared(
    db,
    `SELECT p.id, p.content, p.created_at, e.conversation_id, -p.salience AS rank
       FROM pinned_facts p
       LEFT JOIN episodes e ON e.id = p.source_episode_id AND e.agent_id = p.agent_id
       WHERE p.agent_id = ? AND p.status = 'active' AND p.superseded_at IS NULL
       ORDER BY p.pinned_by_user DESC, p.salience DESC, p.use_count DESC, p.id DESC LIMIT ?`,
  ).all(agentId, limit) as Row[];
  return rows.map(toHit);
}

/** The agent's most recent episodes (entity names for the gate). */
export function recentEpisodeEntities(
  db: Db,
  agentId: string,
  limit: number,
): { entities: string; topics: string }[] {
  return prepared(
    db,
    `SELECT entities, topics FROM episodes WHERE agent_id = ?
       ORDER BY conversation_at DESC LIMIT ?`,
  ).all(agentId, limit) as { entities: string; topics: string }[];
}

/**
 * Speaker labels used in the agent's transcript ("Name: ..." lines, as written by
 * clients that keep names in the text, e.g. ingested chat logs). Sampled from the most
 * recent rows so it stays cheap on a large memory.
 */
export function recentTranscriptSample(db: Db, agentId: string, limit: number): TurnHead[] {
  return prepared(
    db,
    `SELECT id, substr(content, 1, 60) AS head FROM transcript
       WHERE agent_id = ? ORDER BY created_at DESC LIMIT ?`,
  ).all(agentId, limit) as TurnHead[];
}

/** A transcript row's id and the start of its text. */
export interface TurnHead {
  id: number;
  head: string;
}

/**
 * The heads of the last `perConversation` turns of each of the agent's `conversations` most
 * recently active conversations, and of about `spread` conversations spread evenly over its
 * whole history, the oldest first: a sample that still holds an imported log's speakers after
 * thousands of turns of chat in a few long conversations (the recent sample above then holds
 * only those) or in hundreds of new ones (then the recent conversations are all chat). Finds
 * the agent's conversations by skipping through the (agent_id, conversation_id, id) index, one
 * seek per conversation and one for its last turn, instead of walking every turn's entry (at
 * 100k rows in 2,000 conversations: 9-10 ms instead of 13-30 ms, on the thread serving
 * requests, every 30 s), then seeks each picked one's last turns.
 */
export function recentConversationSample(
  db: Db,
  agentId: string,
  conversations: number,
  perConversation: number,
  spread = 0,
): TurnHead[] {
  return prepared(
    db,
    `WITH RECURSIVE ids(cid) AS (
       SELECT (SELECT min(conversation_id) FROM transcript WHERE agent_id = @agentId)
       UNION ALL
       SELECT (SELECT min(conversation_id) FROM transcript
                WHERE agent_id = @agentId AND conversation_id > ids.cid)
         FROM ids WHERE ids.cid IS NOT NULL),
     convs AS (
       SELECT cid AS conversation_id, last, row_number() OVER (ORDER BY last) AS rn,
              count(*) OVER () AS total
         FROM (SELECT cid, (SELECT max(id) FROM transcript
                             WHERE agent_id = @agentId AND conversation_id = ids.cid) AS last
                 FROM ids WHERE cid IS NOT NULL)),
     picked AS (
       SELECT conversation_id FROM (SELECT conversation_id FROM convs ORDER BY last DESC LIMIT @conversations)
       UNION
       SELECT conversation_id FROM convs
        WHERE @spread > 0 AND (rn - 1) % max(1, total / @spread) = 0)
     SELECT t.id, substr(t.content, 1, 60) AS head FROM picked r JOIN transcript t
       ON t.id IN (SELECT id FROM transcript WHERE agent_id = @agentId
                     AND conversation_id = r.conversation_id ORDER BY id DESC LIMIT @per)`,
  ).all({ agentId, conversations, per: perConversation, spread }) as TurnHead[];
}

/**
 * A value that changes whenever facts or episodes are added to or removed from the agent's
 * memory, or its identity changes: the gate's names are read again then (an edit in place is
 * seen with the next transcript sample, within 30 s). Reads only the agent's entries of the
 * tables' indexes, and the identity's one row.
 */
export function memoryVersion(db: Db, agentId: string): string {
  const row = prepared(
    db,
    `SELECT
       (SELECT count(*) || '.' || coalesce(max(id), 0) FROM pinned_facts WHERE agent_id = @a) AS facts,
       (SELECT count(*) || '.' || coalesce(max(id), 0) FROM episodes WHERE agent_id = @a) AS episodes,
       (SELECT coalesce(max(updated_at), 0) FROM identity WHERE agent_id = @a) AS identity`,
  ).get({ a: agentId }) as { facts: string; episodes: string; identity: number };
  return `${row.facts}|${row.episodes}|${row.identity}`;
}

/** Which kinds of memory the agent has at all (EXISTS probes: O(1) on the agent indexes). */
export function memoryPresence(
  db: Db,
  agentId: string,
): { transcript: boolean; episodes: boolean; pinned: boolean } {
  const row = prepared(
    db,
    `SELECT
         EXISTS (SELECT 1 FROM transcript WHERE agent_id = @a) AS transcript,
         EXISTS (SELECT 1 FROM episodes WHERE agent_id = @a) AS episodes,
         EXISTS (SELECT 1 FROM pinned_facts WHERE agent_id = @a AND status = 'active'
                 AND superseded_at IS NULL) AS pinned`,
  ).get({ a: agentId }) as { transcript: number; episodes: number; pinned: number };
  return {
    transcript: row.transcript === 1,
    episodes: row.episodes === 1,
    pinned: row.pinned === 1,
  };
}

/**
 * Plain BM25 (unstemmed, no re-ranking) over the transcript: the baseline the retrieval
 * benchmark compares against; no request path uses it. The unstemmed mirror it needs is not
 * kept in the database (migration 003 dropped it: maintaining it doubled the insert cost), so
 * it is built here from the rows of every agent, in an attached in-memory database (never a
 * plaintext temp file), and lives until `close()`.
 */
export function createPlainBm25Baseline(db: Db): {
  search(q: { agentId: string; match: string; limit: number }): number[];
  close(): void;
} {
  db.exec(`ATTACH DATABASE ':memory:' AS plain_bm25`);
  db.exec(`CREATE VIRTUAL TABLE plain_bm25.transcript_plain_fts USING fts5 (
      content, content = '', tokenize = 'unicode61 remove_diacritics 2')`);
  db.exec(
    `INSERT INTO plain_bm25.transcript_plain_fts (rowid, content) SELECT id, content FROM main.transcript`,
  );
  const query = db.prepare(
    `SELECT t.id FROM plain_bm25.transcript_plain_fts AS f CROSS JOIN main.transcript t ON t.id = f.rowid
       WHERE f.transcript_plain_fts MATCH ? AND t.agent_id = ?
       ORDER BY bm25(f.transcript_plain_fts) LIMIT ?`,
  );
  return {
    search: (q) => (query.all(q.match, q.agentId, q.limit) as { id: number }[]).map((r) => r.id),
    close: () => db.exec('DETACH DATABASE plain_bm25'),
  };
}
