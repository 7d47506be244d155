// The read path behind one interface (services.ts MemoryReader): gate → planner for the proxy
// and POST /memory/context, and hybrid search for POST /memory/search and MCP.
import type { MemorySection, SearchRequest, SearchResult } from '../../../shared/api.ts';
import type { Settings } from '../../../shared/settings.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type {
  ContextResult,
  MemoryReader,
  UpstreamClient,
  VectorKind,
  VectorService,
} from '../services.ts';
import type { Db } from '../store/migrate.ts';
import { parseJsonList } from '../store/episodes.ts';
import { getIdentity } from '../store/identity.ts';
import { heldRelations } from '../store/pinned.ts';
import {
  memoryPresence,
  memoryVersion,
  recentEpisodeEntities,
  recentConversationSample,
  recentTranscriptSample,
  topPinnedFacts,
} from '../store/search.ts';
import { classifyHeuristic, classifyWithLlm, nameSet, type GateContext } from './gate.ts';
import { planMemoryBlock } from './planner.ts';
import { forgottenWording } from './suppress.ts';
import { forgottenWordings } from '../store/forgotten.ts';
import { getAgentSettings } from '../store/agent-settings.ts';
import type { TranscriptHeadIndex } from '../store/transcript-head.ts';
import { preloadTokenizer } from './tokens.ts';
import { createTermStats, searchMemory, type SearchDeps } from './search.ts';

export interface MemoryReaderDeps {
  db: Db;
  settings: { get(): Settings };
  upstream: UpstreamClient;
  vectors: VectorService | null;
  logger: Logger;
  clock: Clock;
  /**
   * The relations of typed facts a text asks about, by word meaning, best first (static word
   * vectors; [] until they are loaded). The gate uses it to hear questions about the user in
   * any wording.
   */
  relationsOf?: (text: string) => readonly { relation: string; score: number }[];
  /**
   * A text's meaning features for the gate's model (GateContext.meaningOf), given its relations
   * when they are at hand; null until the word vectors are loaded.
   */
  meaningOf?: (
    text: string,
    relations?: readonly { relation: string; score: number }[],
  ) => Float32Array | null;
  /** Scores passages by closeness to a question (planner.ts PlanInput.rankByMeaning). */
  rankByMeaning?: (question: string, passages: readonly string[]) => number[];
  /** The transcript's head query in memory (store/transcript-head.ts); FTS5 without it. */
  transcriptHead?: TranscriptHeadIndex;
}

/** Speaker labels of an agent's transcript change slowly; read again at most this often. */
const NAMES_TTL_MS = 30_000;
/** Vector results for a repeated query (clients resend the same message) are reused. */
const VECTOR_CACHE_TTL_MS = 30_000;
const CACHE_ENTRIES = 256;
/**
 * The index is asked for at least this many hits (the planner's largest pool), so the block's
 * two asks for the same question's nearest turns (fused with the lexical list, and by meaning
 * alone, with different k) are one search: the best k of a larger search. A search's cost
 * barely depends on k; at 100k rows it is ~0.5 ms with the word vectors, more with the model.
 */
const VECTOR_CACHE_MIN_K = 48;

const NONE: ContextResult = { section: 'none', block: '', tokens: 0 };

export function createMemoryReader(deps: MemoryReaderDeps): MemoryReader {
  const log = deps.logger.child('memory-read');
  const heads = new Map<string, { at: number; heads: string[] }>();
  const names = new Map<
    string,
    { heads: { at: number; heads: string[] }; version: string; ctx: GateContext }
  >();
  const vectors = deps.vectors ? cachingVectors(deps.vectors, deps.clock) : null;
  const searchDeps: SearchDeps = {
    db: deps.db,
    vectors,
    clock: deps.clock,
    logger: log,
    termStats: createTermStats(),
    ...(deps.transcriptHead ? { transcriptHead: deps.transcriptHead } : {}),
  };
  // Off the request path: the first proxied request should not wait for the BPE tables.
  setTimeout(() => {
    try {
      preloadTokenizer();
    } catch (err) {
      log.warn('tokenizer preload failed', { error: err instanceof Error ? err.message : err });
    }
  }, 0).unref();

  /** The transcript's part of the names (speaker labels): slow to read, slow to change. */
  function transcriptHeadsOf(agentId: string): string[] {
    // The most recent turns, and the last few of each recent conversation (an imported log's
    // speakers stay known after long chats), each turn once.
    return [
      ...new Map(
        [
          ...recentTranscriptSample(deps.db, agentId, 1_000),
          ...recentConversationSample(deps.db, agentId, 300, 4, 50),
        ].map((t) => [t.id, t.head]),
      ).values(),
    ];
  }

  function computeGateContext(agentId: string, transcriptHeads: string[]): GateContext {
    const ctx = gateContextFrom({
      transcriptHeads,
      episodeEntities: recentEpisodeEntities(deps.db, agentId, 50).flatMap((e) =>
        parseJsonList(e.entities),
      ),
      facts: topPinnedFacts(deps.db, agentId, 200).map((f) => f.content),
      identity: getIdentity(deps.db, agentId).overrides,
    });
    return {
      ...ctx,
      heldRelations: new Set(heldRelations(deps.db, agentId)),
      ...(deps.relationsOf ? { relationsOf: deps.relationsOf } : {}),
      ...(deps.meaningOf ? { meaningOf: deps.meaningOf } : {}),
    };
  }

  const refreshing = new Set<string>();
  /** The transcript heads, at most NAMES_TTL_MS old (refreshed off the request path). */
  function cachedHeads(agentId: string): { at: number; heads: string[] } {
    const now = deps.clock.now();
    const cached = heads.get(agentId);
    if (cached && now - cached.at < NAMES_TTL_MS) return cached;
    if (cached) {
      // Stale: answer with what we know and refresh off the request path.
      if (!refreshing.has(agentId)) {
        refreshing.add(agentId);
        setImmediate(() => {
          refreshing.delete(agentId);
          try {
            heads.set(agentId, { at: deps.clock.now(), heads: transcriptHeadsOf(agentId) });
          } catch (err) {
            log.warn('could not refresh known names', {
              error: err instanceof Error ? err.message : String(err),
            });
          }
        });
      }
      return cached;
    }
    const fresh = { at: now, heads: transcriptHeadsOf(agentId) };
    if (heads.size >= CACHE_ENTRIES) heads.delete(heads.keys().next().value as string);
    heads.set(agentId, fresh);
    return fresh;
  }

  /**
   * The gate's names for an agent. Its facts, episodes and identity are read again as soon as
   * they change (a sister named a moment ago is a person for the next question, not 30 s
   * later); the transcript's speakers come from the heads above.
   */
  function gateContext(agentId: string): GateContext {
    const h = cachedHeads(agentId);
    const version = memoryVersion(deps.db, agentId);
    const cached = names.get(agentId);
    if (cached && cached.heads === h && cached.version === version) return cached.ctx;
    const ctx = computeGateContext(agentId, h.heads);
    if (names.size >= CACHE_ENTRIES) names.delete(names.keys().next().value as string);
    names.set(agentId, { heads: h, version, ctx });
    return ctx;
  }

  const usesHeuristicGate = (settings: Settings) =>
    settings.relevanceGateMode === 'heuristic' ||
    (settings.relevanceGateMode === 'llm' && settings.coreModel === null);

  async function chooseSection(
    settings: Settings,
    ctx: GateContext,
    message: string,
    signal: AbortSignal | undefined,
  ): Promise<MemorySection> {
    if (settings.relevanceGateMode === 'off') return 'pinned';
    if (settings.relevanceGateMode === 'llm' && settings.coreModel !== null) {
      return classifyWithLlm(message, ctx, {
        upstream: deps.upstream,
        model: settings.coreModel,
        logger: log,
        ...(signal ? { signal } : {}),
      });
    }
    return classifyHeuristic(message, ctx);
  }

  return {
    async buildContext(agentId, message, options = {}) {
      const settings = deps.settings.get();
      if (!settings.enabled) return NONE;
      // The gate and the planner both ask which relations the message is about (the same
      // text when it is short): worked out once per request.
      const relationsOf = deps.relationsOf ? lastResultOf(deps.relationsOf) : undefined;
      // The agent's names, read once per request (gateContext checks the memory's version).
      let agentNames: GateContext | undefined;
      const namesOfAgent = (): GateContext => (agentNames ??= gateContext(agentId));
      const gateFor = (): GateContext => {
        const ctx = namesOfAgent();
        if (!relationsOf) return ctx;
        const { meaningOf } = deps;
        // The model's meaning features reuse the relations the rules worked out.
        return meaningOf
          ? { ...ctx, relationsOf, meaningOf: (text) => meaningOf(text, relationsOf(text)) }
          : { ...ctx, relationsOf };
      };
      // The heuristic gate is CPU only (the names it knows are cached): a message that needs
      // no memory, most of them, is answered without a database read. The LLM gate costs a
      // model call, so it runs only once the agent is known to remember something.
      let section: MemorySection | null = null;
      if (usesHeuristicGate(settings)) {
        section = classifyHeuristic(message, gateFor());
        if (section === 'none') return NONE;
      }
      const presence = memoryPresence(deps.db, agentId);
      if (
        !presence.transcript &&
        !presence.episodes &&
        !presence.pinned &&
        getIdentity(deps.db, agentId).overrides.length === 0
      ) {
        return NONE; // nothing remembered for this agent: no gate, no search
      }
      section ??= await chooseSection(settings, gateFor(), message, options.signal);
      if (section === 'none') return NONE;
      const started = performance.now();
      const gateCtx = namesOfAgent();
      const result = await planMemoryBlock(searchDeps, {
        agentId,
        message,
        section,
        // An agent's own budget (its controls) wins over the global one.
        budgetTokens:
          getAgentSettings(deps.db, agentId).memoryBudgetTokens ?? settings.memoryBudgetTokens,
        bumpUsage: options.bumpUsage !== false,
        presence,
        ...(gateCtx.people ? { speakers: gateCtx.people } : {}),
        forgotten: forgottenWordings(deps.db, agentId)
          .map(forgottenWording)
          .filter((f) => f !== null),
        ...(relationsOf && section !== 'transcript' ? { relations: relationsOf(message) } : {}),
        ...(deps.rankByMeaning ? { rankByMeaning: deps.rankByMeaning } : {}),
      });
      log.debug('context built', {
        section: result.section,
        tokens: result.tokens,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
      return result;
    },

    async search(request: SearchRequest): Promise<SearchResult[]> {
      return searchMemory(searchDeps, request);
    },
  };
}

/** A speaker label must recur this often in the sample to count ("Note: ..." once does not). */
const MIN_SPEAKER_TURNS = 2;
/** Facts that introduce a person or pet: their capitalised words are people's names. */
const PERSON_FACT =
  /\b(?:name|named|called|wife|husband|partner|spouse|son|daughter|kids?|child|children|mom|mother|mum|dad|father|brother|sister|boyfriend|girlfriend|fianc[eé]e?|grand(?:ma|mother|pa|father|dad|son|daughter|child|children|kids?)|nan|nana|nanna|gran|granny|god(?:mother|father|son|daughter|child)|step(?:mum|mom|dad|son|daughter)|dog|cat|puppy|kitten|pet|baby|cousin|aunt|uncle|niece|nephew|friend|roommate|colleague|boss|manager|neighbou?r)\b/iu;
/**
 * Capitalised words inside a fact, a run of them at a time ("Priya Raman", "New York"); not
 * after an article or a possessive, where capitals name a thing ("has a Horse Painting"). A
 * number right after is kept ("teaches Year 5"): nameSet takes a word with a number for a label.
 */
const CAPITALISED_INSIDE =
  /(?<=[^.!?]\s)(?<!\b(?:a|an|the|some|this|that|my|our|his|her|their|its)\s)(?<!\p{Lu}[\p{L}'-]*\s)\p{Lu}[\p{L}'-]{2,}(?:\s\p{Lu}[\p{L}'-]{2,})*(?:\s\d+\b)?/gu;

/**
 * The gate's names from what the agent remembers. People: speaker labels of the transcript
 * (chat logs that keep names in the text), names in identity and facts about the user's name,
 * family, friends and pets. Other names (episode entities, capitalised words of other facts) are
 * often everyday words of general questions (Python, Paris), so the gate treats them apart.
 */
export function gateContextFrom(source: {
  transcriptHeads: Iterable<string>;
  episodeEntities: Iterable<string>;
  facts: Iterable<string>;
  identity: Iterable<string>;
}): GateContext {
  const labels = new Map<string, number>();
  for (const head of source.transcriptHeads) {
    const label = /^([\p{Lu}][\p{L}'-]*(?: [\p{Lu}][\p{L}'-]*){0,2}):\s/u.exec(head)?.[1];
    if (label !== undefined) labels.set(label, (labels.get(label) ?? 0) + 1);
  }
  const peopleRaw = [...labels].filter(([, n]) => n >= MIN_SPEAKER_TURNS).map(([l]) => l);
  const otherRaw: string[] = [...source.episodeEntities];
  for (const fact of [...source.identity, ...source.facts]) {
    const into = PERSON_FACT.test(fact) ? peopleRaw : otherRaw;
    for (const m of fact.matchAll(CAPITALISED_INSIDE)) into.push(m[0]);
  }
  const people = nameSet(peopleRaw);
  const knownNames = new Set([...people, ...nameSet(otherRaw, { parts: false })]);
  return { knownNames, people };
}

/** `f` remembering its last answer: asked again for the same text, it answers at once. */
function lastResultOf<T>(f: (text: string) => T): (text: string) => T {
  let last: { text: string; value: T } | null = null;
  return (text) => {
    if (last?.text !== text) last = { text, value: f(text) };
    return last.value;
  };
}

/**
 * Wraps the vector service so a repeated query (clients resend the whole conversation, and
 * /memory/context previews the same message) is embedded once. Only ids are cached: rows
 * are re-read from the database on every search, so a deleted memory never comes back.
 */
export function cachingVectors(inner: VectorService, clock: Clock): VectorService {
  const cache = new Map<string, { at: number; k: number; hits: { id: number; score: number }[] }>();
  return {
    isReady: () => inner.isReady(),
    activeModel: () => inner.activeModel(),
    indexRows: (kind, rows) => inner.indexRows(kind, rows),
    remove: (kind, id) => {
      cache.clear();
      inner.remove(kind, id);
    },
    backfill: (signal) => inner.backfill(signal),
    async search(agentId: string, kind: VectorKind, queryText: string, k: number) {
      const key = `${agentId}\u0000${kind}\u0000${queryText}`;
      const now = clock.now();
      const hit = cache.get(key);
      if (hit && hit.k >= k && now - hit.at < VECTOR_CACHE_TTL_MS) return hit.hits.slice(0, k);
      const wide = Math.max(k, VECTOR_CACHE_MIN_K);
      const hits = await inner.search(agentId, kind, queryText, wide);
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, { at: now, k: wide, hits });
      return hits.slice(0, k);
    },
  };
}
