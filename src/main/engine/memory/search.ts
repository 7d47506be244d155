// Hybrid retrieval for the three memory scopes (DESIGN §7): BM25 over porter-stemmed FTS5
// mirrors and, when the embedder is ready, vector cosine, fused by reciprocal rank, then MMR
// so that near-duplicates do not crowd out other memories. Fallbacks: no vectors → FTS5
// only; FTS5 unavailable or nothing found → escaped LIKE terms.
import type { SearchRequest, SearchResult, SearchScope } from '../../../shared/api.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { VectorKind, VectorService } from '../services.ts';
import type { Db } from '../store/migrate.ts';
import type { TranscriptHeadIndex } from '../store/transcript-head.ts';
import { WORD_VECTORS_MODEL_ID } from '../vector/word-vectors.ts';
import { datesAskedAbout, type TimeWindow } from './extraction/dates.ts';
import {
  ftsDocumentFrequencies,
  ftsRowCount,
  getRowsByIds,
  searchCandidates,
  searchTranscriptWithin,
  type Candidates,
  type FtsScope,
  type StoredHit,
} from '../store/search.ts';
import {
  buildMatchExpression,
  buildPairedMatchExpression,
  hasContentWords,
  jaccard,
  queryTerms,
  wordSet,
} from '../text/text.ts';

export const DEFAULT_TOP_K = 10;
const DAY_MS = 86_400_000;

/** How many BM25 candidates are re-ranked (neighbours, speakers, fusion). */
const FTS_CANDIDATES = 60;
/** Candidates whose neighbouring turns are pulled in as candidates of their own. */
const NEIGHBOUR_EXPANSION = 60;
/** Candidates whose neighbours are looked up at all. */
const NEIGHBOUR_LOOKUPS = 100;
/**
 * Transcript re-ranking weights. The defaults are the shipped values; SearchDeps.weights
 * overrides them for the leave-one-conversation-out check of `npm run bench -- locomo`.
 */
export interface RerankWeights {
  /** A turn inherits this share of its best-matching neighbour's score: a question's answer
   *  often sits in the reply to (or the message before) the turn that names the topic. */
  neighbour: number;
  /** A turn earns this share of the best score in its conversation. */
  conversation: number;
  /** Boost for a turn spoken by the person the query names ("What is Rosalind's hobby?"). */
  speaker: number;
  /** Boost for turns carrying a time expression when the query asks "when". */
  temporal: number;
  /** Boost for turns of a date the query names ("what did Noor share on 4 September, 2021?"). */
  dated: number;
}

export const DEFAULT_RERANK_WEIGHTS: Readonly<RerankWeights> = {
  neighbour: 0.6,
  conversation: 0.3,
  speaker: 0.6,
  temporal: 0.2,
  dated: 1,
};
/** Matches of each date a question names that join the candidates (a day holds a session or two). */
const DATED_CANDIDATES = 20;
/** Content words a neighbour-only turn needs to be a result. */
const MIN_NEIGHBOUR_WORDS = 3;
/** Reciprocal rank fusion constant (Cormack et al. 2009). */
const RRF_K = 60;
/**
 * How much the vector list counts against the lexical one in the fusion, by the embedder
 * that serves search. A sentence model carries a message's meaning: its list counts as much
 * as BM25's. Static word vectors average word meanings: that finds a fact asked about in other
 * words, but blurs a conversation turn into its topic. On transcript turns they only took
 * places from better lexical hits when the words of the question were found (`npm run bench
 * -- locomo`, production defaults: recall@10 0.768 without them, 0.743 at weight 0.25, 0.527 at
 * 1; with the named-date search, 0.786 without them and 0.764 at 0.25), so there they are not
 * searched; the planner adds a few turns found by meaning after
 * the lexical ones when a personal question leaves room in the block (planner.ts).
 */
export const STATIC_VECTOR_WEIGHTS: Readonly<Record<FtsScope, number>> = {
  transcript: 0,
  episodes: 0.5,
  pinned: 1,
};
/** MMR trade-off: 1 = relevance only. High, because dropping a relevant line costs more than
 *  showing two similar ones. */
const MMR_LAMBDA = 0.8;

export interface SearchDeps {
  db: Db;
  vectors: VectorService | null;
  clock: Clock;
  logger?: Logger;
  /** Document-frequency cache (createTermStats); without it no term is ever dropped. */
  termStats?: TermStats;
  /** Transcript re-ranking weights (default DEFAULT_RERANK_WEIGHTS). */
  weights?: Partial<RerankWeights>;
  /** The transcript's head query in memory (without it FTS5 answers every one). */
  transcriptHead?: TranscriptHeadIndex;
}

/**
 * Cached document frequencies. A term found in a good share of all rows ("going", or a
 * speaker's name in a labelled chat log) adds almost nothing to BM25 (its IDF is near zero)
 * but makes FTS5 score thousands of rows; when a query would have too many rows scored, such
 * terms are left out of the MATCH (they still count for the speaker boost). Frequencies move
 * slowly: cached.
 */
export interface TermStats {
  /**
   * `n`: rows containing the term, counted up to a cap; `capped`: the count hit the cap;
   * `rows`: the table's size when counted.
   */
  df: Map<string, { n: number; at: number; capped: boolean; rows: number }>;
}

export function createTermStats(): TermStats {
  return { df: new Map() };
}

const STATS_TTL_MS = 5 * 60_000;
/**
 * A count taken when the table was this much smaller is taken again: frequencies grow with the
 * table, and a name counted in 1,300 of 10k rows (matched with every term) is in 13,000 once
 * the memory has grown to 100k rows, where matching it costs 10 times as much.
 */
const STATS_GROWTH = 1.1;
const STATS_ENTRIES = 20_000;
/**
 * How many rows one search may have FTS5 score before its terms are pruned, whatever the
 * table's size. bm25() costs about 0.4 µs per matched row (measured at 15k rows: 3.6 ms for
 * the 9k rows a question naming a speaker of a labelled chat log matches; at 100k rows 15 ms
 * for 38k), so this many cost ~0.8 ms: a quarter of the 3 ms of CPU a whole memory-injected
 * request may use (issue 11). A query whose terms together occur in fewer rows is matched
 * with every term OR-ed, exactly as BM25 ranks it.
 */
const SCORE_BUDGET = 2_000;
/** When pruning, a term in more rows than this share (and at least PRUNE_MIN_DF rows) is left out. */
const PRUNE_SHARE = 0.05;
/** Not below SCORE_BUDGET: a count stopped at this limit then always exceeds the budget. */
const PRUNE_MIN_DF = SCORE_BUDGET;
/** When pruning, terms in at most this share of rows (or RARE_MIN_DF) match alone. */
const RARE_SHARE = 0.01;
const RARE_MIN_DF = 100;
/** When pruning, at most this many (the rarest) terms are matched. */
const PRUNE_MAX_TERMS = 8;
/**
 * When pruning, BM25 ranks only this many of the most recent transcript matches: a query of
 * only common words ("what do Omar and Tamsin have in common?") otherwise scores tens of
 * thousands of rows on a large memory (measured at 100k rows: 15 ms for 38k matches, 2.6 ms
 * for 4k).
 */
const RECENT_MATCHES = 4_000;

export interface ScopeQuery {
  agentId: string;
  scope: SearchScope;
  query: string;
  topK?: number;
  days?: number;
  /** LIKE scan when FTS finds nothing (default true; the proxy path turns it off for speed). */
  likeFallback?: boolean;
  /** Vector search (default: when the vector service is ready). */
  useVectors?: boolean;
}

export interface RankedHit extends StoredHit {
  scope: SearchScope;
}

const kindOf: Record<SearchScope, VectorKind> = {
  transcript: 'transcript',
  episodes: 'episode',
  pinned: 'pinned',
};

const TEMPORAL =
  /\b(yesterday|today|tonight|tomorrow|last|ago|next|recently|week|weekend|month|year|years|january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{4}|\d{1,2}\/\d{1,2})\b/iu;
const WHEN_QUESTION =
  /^\s*(?:when\b|what\s+(?:year|month|date|day|time)\b|how\s+long\s+ago\b|since\s+when\b)/iu;
const FIRST_PERSON = /\b(i|my|me|mine|myself)\b/iu;
const SPEAKER_LABEL = /^([\p{L}][\p{L}\p{N} .'-]{0,40}):\s/u;

/** "Helena: hi" → "helena" (the label of transcripts that keep speaker names in text). */
export function speakerOf(content: string): string | null {
  const m = SPEAKER_LABEL.exec(content);
  return m ? (m[1] as string).toLowerCase() : null;
}

/**
 * Runs a search of one scope and returns the ranked rows (planner and HTTP API share it). The
 * store is asked twice: for the table's size (and, above SCORE_BUDGET rows, the document
 * frequencies not cached yet), then once for every row ranking needs (searchCandidates);
 * the ranking itself happens here.
 */
export async function searchScope(deps: SearchDeps, q: ScopeQuery): Promise<RankedHit[]> {
  const topK = q.topK ?? DEFAULT_TOP_K;
  const since = q.days === undefined ? null : deps.clock.now() - q.days * DAY_MS;
  const terms = queryTerms(q.query);
  const scope: FtsScope = q.scope;

  // 1. The vector list first (when it counts), so its rows come back with the lexical ones.
  const vectorWeight = vectorWeightFor(deps, scope);
  const useVectors =
    q.useVectors !== false && vectorWeight > 0 && deps.vectors !== null && q.query.trim() !== '';
  const vectorHits = useVectors
    ? await vectorSearch(deps, q.agentId, scope, q.query, topK * 3)
    : [];

  // 2. BM25 candidates (sanitised MATCH; when too few rows hold the common words together,
  //    each of them alone), the LIKE fallback, neighbouring turns and the vector hits' rows.
  const match = matchFor(deps, scope, terms);
  const found = searchCandidates(deps.db, scope, {
    agentId: q.agentId,
    matches: [match.primary, match.wider],
    enough: topK,
    likeTerms: q.likeFallback === false ? null : terms,
    since,
    limit: FTS_CANDIDATES,
    ...(match.large ? { recentMatches: RECENT_MATCHES } : {}),
    ...(scope === 'transcript'
      ? { neighbours: { lookups: NEIGHBOUR_LOOKUPS, expand: NEIGHBOUR_EXPANSION } }
      : {}),
    ...(scope === 'transcript' && deps.transcriptHead ? { head: deps.transcriptHead } : {}),
    ids: vectorHits.map((v) => v.id),
  });
  if (found.ftsError !== null) {
    deps.logger?.warn('full-text search failed; falling back to LIKE', {
      scope,
      error: found.ftsError,
    });
  }

  // 3. Scope-specific re-ranking of the lexical list. A transcript question that names a date
  //    also searches that date's turns alone, and they count more.
  let lexical: Map<number, StoredHit & { rel: number }>;
  if (scope === 'transcript') {
    const weights = { ...DEFAULT_RERANK_WEIGHTS, ...deps.weights };
    const dates = weights.dated > 0 ? datesAskedAbout(q.query, deps.clock.now()) : [];
    if (dates.length > 0) addDatedHits(deps, q.agentId, found, match.primary, dates, since);
    lexical = rerankTranscript(found, q.query, terms, weights, dates);
  } else {
    lexical = new Map(found.hits.map((h) => [h.id, { ...h, rel: h.score }]));
  }

  // 4. The vector list fused with the lexical one by reciprocal rank.
  let fused: { hit: StoredHit; score: number }[];
  if (useVectors) {
    fused = fuse(lexical, found.rows, vectorHits, vectorWeight);
  } else {
    fused = [...lexical.values()].map((h) => ({ hit: h, score: h.rel }));
  }
  fused.sort((a, b) => b.score - a.score || b.hit.created_at - a.hit.created_at);

  // 5. MMR over the head of the list.
  const picked = mmr(fused.slice(0, Math.max(topK * 4, 40)), topK);
  return picked.map(({ hit, score }) => ({ ...hit, scope: q.scope, score: round(score) }));
}

/** How much the vector list counts in the fusion (0: not searched), by the serving embedder. */
function vectorWeightFor(deps: SearchDeps, scope: FtsScope): number {
  if (!deps.vectors?.isReady()) return 0;
  return deps.vectors.activeModel() === WORD_VECTORS_MODEL_ID ? STATIC_VECTOR_WEIGHTS[scope] : 1;
}

/** Vector hits, best first; [] when the search fails (full-text search still answers). */
async function vectorSearch(
  deps: SearchDeps,
  agentId: string,
  scope: FtsScope,
  query: string,
  k: number,
): Promise<{ id: number; score: number }[]> {
  try {
    return (await deps.vectors?.search(agentId, kindOf[scope], query, k)) ?? [];
  } catch (err) {
    deps.logger?.warn('vector search failed; using full-text only', { error: err });
    return [];
  }
}

/**
 * Conversation turns nearest to the query by meaning alone (the vector index), for the planner
 * to add after the lexical ones when a personal question is asked in other words than the
 * memory's. [] while no embedder serves search.
 */
export async function turnsByMeaning(
  deps: SearchDeps,
  agentId: string,
  query: string,
  k: number,
): Promise<RankedHit[]> {
  if (!deps.vectors?.isReady() || query.trim() === '') return [];
  let vectorHits: { id: number; score: number }[];
  try {
    vectorHits = await deps.vectors.search(agentId, 'transcript', query, k);
  } catch (err) {
    deps.logger?.warn('vector search failed; no turns by meaning', { error: err });
    return [];
  }
  const rows = getRowsByIds(
    deps.db,
    'transcript',
    agentId,
    vectorHits.map((v) => v.id),
  );
  return vectorHits.flatMap((v) => {
    const row = rows.get(v.id);
    return row ? [{ ...row, scope: 'transcript' as const, score: round(v.score) }] : [];
  });
}

/** POST /memory/search: the ranked rows in the API shape. */
export async function searchMemory(
  deps: SearchDeps,
  request: SearchRequest,
): Promise<SearchResult[]> {
  const hits = await searchScope(deps, {
    agentId: request.agent_id,
    scope: request.scope,
    query: request.query,
    ...(request.top_k === undefined ? {} : { topK: request.top_k }),
    ...(request.days === undefined ? {} : { days: request.days }),
  });
  return hits.map(toSearchResult);
}

export function toSearchResult(h: RankedHit): SearchResult {
  return {
    id: h.id,
    scope: h.scope,
    content: h.content,
    score: h.score,
    created_at: new Date(h.created_at).toISOString(),
    conversation_id: h.conversation_id,
  };
}

/**
 * The MATCH expression for a query: every term OR-ed while FTS5 would score at most
 * SCORE_BUDGET rows for it (the sum of the terms' cached document frequencies, an upper bound
 * of the OR's matches). Above it, near-ubiquitous terms are dropped (their IDF is near zero:
 * they add almost nothing to any row's score, only rows to score), the rarest terms match
 * alone while together they stay within the budget (or are rare by share), and the others
 * only in pairs (see buildPairedMatchExpression); BM25 still counts every term a matched row
 * holds. `large`: pruned. Exported for its tests.
 */
export function matchFor(
  deps: SearchDeps,
  scope: FtsScope,
  terms: string[],
): { primary: string | null; wider: string | null; large: boolean } {
  const plain = () => ({ primary: buildMatchExpression(terms), wider: null, large: false });
  const stats = deps.termStats;
  // One term is counted too: alone, a common word ("What do I do for work?") matches as many
  // rows as several together would.
  if (!stats || terms.length === 0) return plain();
  try {
    const rows = ftsRowCount(deps.db, scope);
    // Fewer rows than the budget: no query can exceed it, no count is needed.
    if (rows <= SCORE_BUDGET) return plain();
    const limit = Math.floor(Math.max(PRUNE_MIN_DF, rows * PRUNE_SHARE));
    const withDf = documentFrequencies(deps, stats, scope, terms, { rows, limit });
    const present = withDf.filter((t) => t.df > 0).sort((a, b) => a.df - b.df);
    if (present.reduce((sum, t) => sum + t.df, 0) <= SCORE_BUDGET) return plain();

    const rare = Math.floor(Math.max(RARE_MIN_DF, rows * RARE_SHARE));
    const kept = present.filter((t) => !t.capped && t.df <= limit).slice(0, PRUNE_MAX_TERMS);
    // Only common words: search the two least common ones.
    const chosen = kept.length > 0 ? kept : present.slice(0, 2);
    const singles: string[] = [];
    const paired: string[] = [];
    let scored = 0;
    for (const t of chosen) {
      // Ascending by frequency: once a term does not fit, no later one would.
      if (paired.length === 0 && (scored + t.df <= SCORE_BUDGET || t.df <= rare)) {
        singles.push(t.term);
        scored += t.df;
      } else paired.push(t.term);
    }
    return {
      primary: buildPairedMatchExpression(singles, paired),
      wider: paired.length > 1 ? buildMatchExpression(chosen.map((t) => t.term)) : null,
      large: true,
    };
  } catch (err) {
    deps.logger?.warn('term statistics failed; searching every term', {
      error: err instanceof Error ? err.message : String(err),
    });
    return plain();
  }
}

/**
 * Each term's document frequency (rows of all agents holding it), from the cache or, for the
 * terms it lacks or holds stale (older than STATS_TTL_MS, or counted in a table STATS_GROWTH
 * times smaller), counted in one call up to `limit + 1`.
 */
function documentFrequencies(
  deps: SearchDeps,
  stats: TermStats,
  scope: FtsScope,
  terms: readonly string[],
  table: { rows: number; limit: number },
): { term: string; df: number; capped: boolean }[] {
  const { rows, limit } = table;
  const now = deps.clock.now();
  const keyOf = (term: string) => `${scope}\u0000${term}`;
  const stale = terms.filter((term) => {
    const df = stats.df.get(keyOf(term));
    return !df || now - df.at > STATS_TTL_MS || rows > df.rows * STATS_GROWTH;
  });
  if (stale.length > 0) {
    const matches = stale.map((term) => buildMatchExpression([term]));
    const counted = ftsDocumentFrequencies(
      deps.db,
      scope,
      matches.filter((m) => m !== null),
      limit + 1,
    );
    let next = 0;
    stale.forEach((term, i) => {
      const n = matches[i] === null ? 0 : (counted[next++] as number);
      // A count that reached its cap only says "more than the limit of that moment": the
      // limit grows with the table, so a capped count must never pass for a real one
      // (it once let a name found in a third of all rows back into the pairs).
      if (stats.df.size >= STATS_ENTRIES) stats.df.clear();
      stats.df.set(keyOf(term), { n, at: now, capped: n > limit, rows });
    });
  }
  return terms.map((term) => {
    const df = stats.df.get(keyOf(term)) ?? { n: 0, capped: false };
    return { term, df: df.n, capped: df.capped };
  });
}

/**
 * The matches of each named date's turns (of the first two dates, not older than `since`),
 * added to the hits they are not among yet.
 */
function addDatedHits(
  deps: SearchDeps,
  agentId: string,
  found: Candidates,
  match: string | null,
  dates: readonly TimeWindow[],
  since: number | null,
): void {
  if (match === null) return;
  const seen = new Set(found.hits.map((h) => h.id));
  for (const d of dates.slice(0, 2)) {
    const from = Math.max(d.from, since ?? d.from);
    if (from >= d.to) continue;
    let hits: StoredHit[];
    try {
      hits = searchTranscriptWithin(deps.db, {
        agentId,
        match,
        from,
        to: d.to,
        limit: DATED_CANDIDATES,
      });
    } catch {
      // FTS5 failed: the caller already fell back and logged it for the main search.
      return;
    }
    for (const h of hits) {
      if (seen.has(h.id)) continue;
      seen.add(h.id);
      found.hits.push(h);
    }
  }
}

/**
 * Transcript re-ranking: each turn also earns part of its neighbours' scores (answers sit
 * next to questions), neighbours of strong hits become candidates, turns spoken by a person
 * the query names and, for "when" questions, turns with a time expression get a boost.
 */
function rerankTranscript(
  found: Candidates,
  query: string,
  terms: string[],
  w: RerankWeights,
  dates: readonly TimeWindow[] = [],
): Map<number, StoredHit & { rel: number }> {
  const out = new Map<number, StoredHit & { rel: number }>();
  const { hits } = found;
  if (hits.length === 0) return out;
  const base = new Map(hits.map((h) => [h.id, h.score]));
  const rows = new Map(hits.map((h) => [h.id, h]));
  const adjacency = new Map<number, number[]>();
  const link = (a: number, b: number): void => {
    const list = adjacency.get(a);
    if (list) list.push(b);
    else adjacency.set(a, [b]);
  };
  // Neighbours of the head of the list only (NEIGHBOUR_LOOKUPS): further down, a neighbour's
  // share cannot lift a turn into the top results, and each lookup costs two index seeks.
  // Those of the first NEIGHBOUR_EXPANSION hits are candidates of their own (their rows came
  // with the hits, unless older than the query's window).
  const expand = new Set(hits.slice(0, NEIGHBOUR_EXPANSION).map((h) => h.id));
  for (const [id, n] of found.neighbours) {
    for (const other of [n.prev, n.next]) {
      if (other === null) continue;
      link(id, other);
      link(other, id);
      const row = expand.has(id) && !rows.has(other) ? found.rows.get(other) : undefined;
      if (row) rows.set(other, row);
    }
  }

  const termSet = new Set(terms);
  const whenQuestion = WHEN_QUESTION.test(query);
  const firstPerson = FIRST_PERSON.test(query);
  let namedSpeaker = false;
  for (const row of rows.values()) {
    const s = speakerOf(row.content);
    if (s !== null && s.split(/\s+/u).some((w) => termSet.has(w))) {
      namedSpeaker = true;
      break;
    }
  }

  // Topic coherence: a turn of a conversation that matches the query well elsewhere is more
  // likely about the same thing than an isolated hit.
  const convBest = new Map<string, number>();
  for (const h of hits) {
    const k = h.conversation_id ?? '';
    convBest.set(k, Math.max(convBest.get(k) ?? 0, h.score));
  }
  for (const [id, row] of rows) {
    let best = 0;
    for (const n of adjacency.get(id) ?? []) best = Math.max(best, base.get(n) ?? 0);
    const own = base.get(id) ?? 0;
    let rel =
      own + w.neighbour * best + w.conversation * (convBest.get(row.conversation_id ?? '') ?? 0);
    if (rel <= 0) continue;
    const speaker = speakerOf(row.content);
    const body = speaker === null ? row.content : row.content.slice(row.content.indexOf(':') + 1);
    // A neighbour that does not match the query itself must carry information of its own:
    // "ok", "haha nice!" next to a hit is not worth a result slot.
    if (own === 0 && !hasContentWords(body, MIN_NEIGHBOUR_WORDS)) continue;
    if (namedSpeaker && speaker !== null && speaker.split(/\s+/u).some((w) => termSet.has(w))) {
      rel *= 1 + w.speaker;
    } else if (!namedSpeaker && firstPerson && row.role === 'user') {
      // "what did I say about..." in a plain chat: the user's own turns first.
      rel *= 1 + w.speaker / 3;
    }
    if (whenQuestion && TEMPORAL.test(body)) rel *= 1 + w.temporal;
    if (dates.some((d) => row.created_at >= d.from && row.created_at < d.to)) rel *= 1 + w.dated;
    out.set(id, { ...row, rel });
  }
  return out;
}

function fuse(
  lexical: Map<number, StoredHit & { rel: number }>,
  byId: Map<number, StoredHit>,
  vectorHits: { id: number; score: number }[],
  vectorWeight: number,
): { hit: StoredHit; score: number }[] {
  const scores = new Map<number, number>();
  const lexicalOrder = [...lexical.values()].sort((a, b) => b.rel - a.rel);
  lexicalOrder.forEach((h, i) => scores.set(h.id, 1 / (RRF_K + i + 1)));
  const rowOf = (id: number): StoredHit | undefined => lexical.get(id) ?? byId.get(id);
  vectorHits
    .filter((v) => rowOf(v.id) !== undefined)
    .forEach((v, i) => scores.set(v.id, (scores.get(v.id) ?? 0) + vectorWeight / (RRF_K + i + 1)));
  return [...scores.entries()].map(([id, score]) => ({ hit: rowOf(id) as StoredHit, score }));
}

/**
 * Maximal marginal relevance (Carbonell & Goldstein 1998) with word-set Jaccard as the
 * similarity: picks `k` items, each time the one maximising
 * λ·relevance − (1−λ)·max similarity to what was already picked.
 */
export function mmr<T extends { hit: { content: string }; score: number }>(
  items: readonly T[],
  k: number,
  lambda: number = MMR_LAMBDA,
): T[] {
  if (items.length <= 1) return items.slice(0, k);
  // Relevance relative to the best item (scores are positive: negated BM25 or RRF sums).
  const max = Math.max(...items.map((i) => i.score)) || 1;
  const sets = items.map((i) => wordSet(i.hit.content.replace(SPEAKER_LABEL, '')));
  const chosen: number[] = [];
  const left = new Set(items.map((_, i) => i));
  // Each item's highest similarity to anything chosen so far, updated with the newest pick
  // only (the max over the chosen set grows one item at a time).
  const maxSim = new Float64Array(items.length);
  while (chosen.length < k && left.size > 0) {
    const newest = chosen.at(-1);
    let bestIdx = -1;
    let bestVal = -Infinity;
    for (const i of left) {
      if (newest !== undefined) {
        maxSim[i] = Math.max(
          maxSim[i] as number,
          jaccard(sets[i] as Set<string>, sets[newest] as Set<string>),
        );
      }
      const rel = (items[i] as T).score / max;
      const val = lambda * rel - (1 - lambda) * (maxSim[i] as number);
      if (val > bestVal) {
        bestVal = val;
        bestIdx = i;
      }
    }
    chosen.push(bestIdx);
    left.delete(bestIdx);
  }
  return chosen.map((i) => items[i] as T);
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
