// Storing a digest (DESIGN §6): `<private>` spans removed from everything derived, the
// conversation's episode upserted, pinned candidates deduplicated against the agent's facts
// and identity facts appended to the always-on overrides. Then new rows are embedded
// (outside the transaction).
//
// Typed facts (subject, relation, object): the same triple again bumps source_count; a new
// value of a single-valued relation supersedes the current one (kept as history, no longer
// searched or injected, its identity override removed); an ended statement ("we no longer
// use X") supersedes the value it names. Free-text facts: word Jaccard > 0.6 or cosine ≥ 0.9
// is a repeat; a near-duplicate that says more ("User prefers tea" → "User prefers tea over
// coffee") replaces the shorter text.
import { inTransaction } from '../store/transaction.ts';
import { WORD_VECTORS_MODEL_ID } from '../vector/word-vectors.ts';
import { jaccard, statementWords } from '../text/text.ts';
import type { Digest, PinnedCandidate } from '../../../shared/digest.ts';
import type { Logger } from '../logger.ts';
import type { VectorService } from '../services.ts';
import type { Db } from '../store/db.ts';
import { upsertConversationEpisode } from '../store/episodes.ts';
import { appendIdentityOverrides, reviseIdentityOverride } from '../store/identity.ts';
import {
  bumpPinnedSource,
  currentTypedFacts,
  insertPinned,
  listFactTexts,
  supersedePinned,
  typePinned,
  updatePinned,
  type CurrentTypedFact,
  type PinnedInput,
} from '../store/pinned.ts';
import { isOnlyPrivate, stripPrivate } from '../text/private.ts';
import { isRelation, isSingleValued, type Relation } from '../text/relations.ts';

export const JACCARD_DUPLICATE = 0.6;
export const COSINE_DUPLICATE = 0.9;
/** How much salience a fact gains when it is stated again. */
export const REPEAT_SALIENCE_BUMP = 0.05;

const NEGATIONS = new Set(['not', 'no', 'never', "doesn't", "don't", "isn't", 'longer', 'nor']);

/**
 * Whether `shorter` says nothing `longer` does not ("User prefers tea" within "User prefers
 * tea over coffee"): every word of it is in the longer text, it has at least three words,
 * and the extra words do not negate it ("User is vegetarian" vs "User is not vegetarian").
 */
/** Whether one text negates the other ("User is vegetarian" / "User is not vegetarian"). */
export function differsByNegation(a: Set<string>, b: Set<string>): boolean {
  for (const w of a) if (!b.has(w) && NEGATIONS.has(w)) return true;
  for (const w of b) if (!a.has(w) && NEGATIONS.has(w)) return true;
  return false;
}

export function isContainedIn(shorter: Set<string>, longer: Set<string>): boolean {
  if (shorter.size < 3 || shorter.size >= longer.size) return false;
  for (const w of shorter) if (!longer.has(w)) return false;
  for (const w of longer) if (!shorter.has(w) && NEGATIONS.has(w)) return false;
  return true;
}

/**
 * Every text of the digest with `<private>` spans replaced; items that said nothing else are
 * dropped (a fact reading "[private]" is no fact).
 */
export function stripDigest(d: Digest): Digest {
  const list = (xs: string[]) => xs.filter((x) => !isOnlyPrivate(x)).map(stripPrivate);
  return {
    episode: {
      ...d.episode,
      summary: stripPrivate(d.episode.summary),
      topics: list(d.episode.topics),
      entities: list(d.episode.entities),
      decisions: list(d.episode.decisions),
      action_items: list(d.episode.action_items),
    },
    pinned_candidates: d.pinned_candidates
      .filter((c) => !isOnlyPrivate(c.content))
      .map((c) => ({ ...c, content: stripPrivate(c.content), tags: list(c.tags) })),
    identity_facts: list(d.identity_facts),
  };
}

export interface TypedTriple {
  subject: string;
  relation: Relation;
  object: string;
}

/** The candidate's (subject, relation, object), or null for a free-text fact. */
export function typedTriple(c: PinnedCandidate): TypedTriple | null {
  if (!c.subject || !c.relation || !c.object || !isRelation(c.relation)) return null;
  return { subject: c.subject.toLowerCase(), relation: c.relation, object: c.object };
}

/** A candidate's valid_from as ms, or null when absent or unreadable. */
export function validFromMs(c: PinnedCandidate): number | null {
  if (!c.valid_from) return null;
  const v = c.valid_from.length === 7 ? `${c.valid_from}-01` : c.valid_from;
  const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
  return Number.isFinite(ms) ? ms : null;
}

const sameObject = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Identity facts that state the same attribute ("User lives in Berlin" / "User lives in
 * Paris") share a key, so a newer statement replaces the older override instead of both
 * being injected forever. Null when the fact has no recognisable attribute.
 */
export function identityKey(fact: string): string | null {
  const m =
    /^(.{1,60}?)\s+(name is|pronouns are|works at|works for|works as|lives in|is from|moved to|is based in|is \d{1,3} years old)\b/i.exec(
      fact.trim(),
    );
  if (!m) return null;
  const subject = m[1]!.toLowerCase().replace(/['’]s$/, '');
  let predicate = m[2]!.toLowerCase();
  if (/years old/.test(predicate)) predicate = 'age';
  else if (/lives in|moved to|is based in/.test(predicate)) predicate = 'location';
  else if (/works (?:at|for)/.test(predicate)) predicate = 'employer';
  else if (/works as/.test(predicate)) predicate = 'job';
  return `${subject}|${predicate}`;
}

export interface StoreDigestInput {
  db: Db;
  agentId: string;
  conversationId: string | null;
  conversationAt: number;
  digest: Digest;
  now: number;
  vectors?: VectorService | null;
  logger?: Logger;
}

export interface StoreDigestResult {
  episodeId: number | null;
  factsAdded: number[];
  factsBumped: number[];
  /** Facts a newer or ended statement made history. */
  factsSuperseded: number[];
  identityAdded: number;
}

/** Finds an existing fact the candidate duplicates (lexically, or by embedding). */
async function cosineDuplicates(
  vectors: VectorService | null | undefined,
  agentId: string,
  texts: string[],
  logger?: Logger,
): Promise<(number | null)[]> {
  // Static word vectors average word meanings: "tennis on Saturday" / "on Sunday" (0.996),
  // "green tea" / "black tea" (0.94) would pass as the same fact. Only a sentence model's
  // cosine says two statements mean the same.
  if (!vectors?.isReady() || vectors.activeModel() === WORD_VECTORS_MODEL_ID) {
    return texts.map(() => null);
  }
  const out: (number | null)[] = [];
  for (const t of texts) {
    try {
      const [best] = await vectors.search(agentId, 'pinned', t, 1);
      out.push(best && best.score >= COSINE_DUPLICATE ? best.id : null);
    } catch (err) {
      logger?.warn('vector dedup failed', { err: (err as Error).message });
      out.push(null);
    }
  }
  return out;
}

export async function storeDigest(input: StoreDigestInput): Promise<StoreDigestResult> {
  const { db, agentId, now } = input;
  const digest = stripDigest(input.digest);
  const cosine = await cosineDuplicates(
    input.vectors,
    agentId,
    digest.pinned_candidates.map((c) => c.content),
    input.logger,
  );

  const addedText = new Map<number, string>();
  // Facts whose text a more informative near-duplicate replaced: embedded again.
  const rewritten = new Map<number, string>();
  const result = inTransaction(db, (): StoreDigestResult => {
    let episodeId: number | null = null;
    if (digest.episode.summary.length > 0) {
      episodeId = upsertConversationEpisode(
        db,
        {
          agentId,
          conversationId: input.conversationId,
          summary: digest.episode.summary,
          topics: digest.episode.topics,
          entities: digest.episode.entities,
          decisions: digest.episode.decisions,
          actionItems: digest.episode.action_items,
          salience: digest.episode.salience,
          conversationAt: input.conversationAt,
        },
        now,
      ).id;
    }
    const existing: { id: number; words: Set<string>; episode: number | null; typed?: boolean }[] =
      listFactTexts(db, agentId).map((f) => ({
        id: f.id,
        words: statementWords(f.content),
        episode: f.source_episode_id,
        typed: f.relation !== null,
      }));
    const factsAdded: number[] = [];
    const factsBumped: number[] = [];
    const superseded: number[] = [];
    const provenance = {
      conversationId: input.conversationId,
      sourceEpisodeId: episodeId,
    };
    // A repeat within this digest, or of a fact this same conversation already gave when it
    // was distilled before (more turns arrived), is not a new source.
    const bumpOnce = (id: number) => {
      const sameSource =
        episodeId !== null && existing.find((f) => f.id === id)?.episode === episodeId;
      if (!sameSource && !factsAdded.includes(id) && !factsBumped.includes(id)) {
        bumpPinnedSource(db, agentId, id, REPEAT_SALIENCE_BUMP, now);
        factsBumped.push(id);
      }
    };
    const insert = (c: PinnedCandidate, extra: Partial<PinnedInput> = {}) => {
      const id = insertPinned(
        db,
        {
          agentId,
          content: c.content,
          salience: c.salience,
          tags: c.tags,
          pinnedByUser: false,
          sourceEpisodeId: provenance.sourceEpisodeId,
          conversationId: provenance.conversationId,
          sourceIds: c.source_ids ?? null,
          ...extra,
        },
        now,
      );
      factsAdded.push(id);
      addedText.set(id, c.content);
      existing.push({ id, words: statementWords(c.content), episode: episodeId });
      return id;
    };
    const retire = (ids: number[], contents: string[], at: number) => {
      supersedePinned(db, agentId, ids, at, now);
      for (const text of contents) reviseIdentityOverride(db, agentId, text, null, now);
      superseded.push(...ids);
      const gone = new Set(ids);
      for (let k = existing.length - 1; k >= 0; k--)
        if (gone.has(existing[k]!.id)) existing.splice(k, 1);
    };

    digest.pinned_candidates.forEach((c, i) => {
      const triple = typedTriple(c);
      const validFrom = validFromMs(c) ?? input.conversationAt;
      if (triple && c.ended) {
        // "We no longer use Jenkins": the value it names (any value for "*") is history.
        const ended = currentTypedFacts(db, agentId, triple.subject, triple.relation).filter(
          (f) => triple.object === '*' || sameObject(f.object, triple.object),
        );
        retire(
          ended.map((f) => f.id),
          ended.map((f) => f.content),
          validFrom,
        );
        // The statement itself stays as a free-text fact (it is true, and it dates the change).
        storeFreeText({ ...c, subject: undefined, relation: undefined, object: undefined }, i);
        return;
      }
      if (triple) {
        storeTyped(c, triple, validFrom);
        return;
      }
      storeFreeText(c, i);
    });

    function storeTyped(c: PinnedCandidate, t: TypedTriple, validFrom: number): void {
      const current = currentTypedFacts(db, agentId, t.subject, t.relation);
      const same = current.find((f) => sameObject(f.object, t.object));
      if (same) {
        bumpOnce(same.id);
        return;
      }
      // The same statement stored before as free text (e.g. by the Core Model): type it.
      const words = statementWords(c.content);
      const freeText = existing.find(
        (f) => f.typed === false && jaccard(words, f.words) > JACCARD_DUPLICATE,
      );
      if (freeText) {
        typePinned(db, agentId, freeText.id, t, validFrom);
        freeText.typed = true;
        bumpOnce(freeText.id);
      }
      const typed = { subject: t.subject, relation: t.relation, object: t.object };
      if (!isSingleValued(t.relation) || current.length === 0) {
        if (!freeText) insert(c, { typed, validFrom });
        if (freeText && isSingleValued(t.relation)) retireOlder(current, validFrom, freeText.id);
        return;
      }
      const newest = current[0]!;
      const newestFrom = newest.valid_from ?? newest.created_at;
      if (validFrom >= newestFrom) {
        // A newer value of a single-valued relation: the current ones become history.
        retireOlder(current, validFrom, freeText?.id ?? null);
        if (!freeText) insert(c, { typed, validFrom });
      } else if (!freeText) {
        // An older value arriving late (history imported out of order): history at once.
        insert(c, { typed, validFrom, supersededAt: newestFrom });
      }
    }

    function retireOlder(current: CurrentTypedFact[], at: number, keep: number | null): void {
      const old = current.filter((f) => f.id !== keep);
      retire(
        old.map((f) => f.id),
        old.map((f) => f.content),
        at,
      );
    }

    function storeFreeText(c: PinnedCandidate, i: number): void {
      const words = statementWords(c.content);
      let dup: number | null = null;
      let best = JACCARD_DUPLICATE;
      for (const f of existing) {
        const j = jaccard(words, f.words);
        if (j > best && !differsByNegation(words, f.words)) {
          best = j;
          dup = f.id;
        }
      }
      const cos = cosine[i];
      if (dup === null && cos != null && existing.some((f) => f.id === cos)) dup = cos;
      if (dup !== null) {
        bumpOnce(dup);
        return;
      }
      // A near-duplicate: keep the more informative text on one row.
      const within = existing.find((f) => isContainedIn(f.words, words));
      if (within) {
        updatePinned(db, agentId, within.id, { content: c.content }, now);
        within.words = words;
        rewritten.set(within.id, c.content);
        bumpOnce(within.id);
        return;
      }
      const covering = existing.find((f) => isContainedIn(words, f.words));
      if (covering) {
        bumpOnce(covering.id);
        return;
      }
      insert(c);
    }

    const identityAdded = appendIdentityOverrides(
      db,
      agentId,
      digest.identity_facts,
      now,
      identityKey,
    );
    return { episodeId, factsAdded, factsBumped, factsSuperseded: superseded, identityAdded };
  });

  const vectors = input.vectors;
  if (vectors) {
    try {
      if (result.episodeId !== null) {
        await vectors.indexRows('episode', [
          { id: result.episodeId, agentId, text: digest.episode.summary },
        ]);
      }
      const rows = [
        ...result.factsAdded.map((id) => ({ id, agentId, text: addedText.get(id) ?? '' })),
        ...[...rewritten].map(([id, text]) => ({ id, agentId, text })),
      ];
      if (rows.length > 0) await vectors.indexRows('pinned', rows);
    } catch (err) {
      // The rows are stored; vectors are backfilled once the embedder works again.
      input.logger?.warn('indexing distilled memory failed', { err: (err as Error).message });
    }
  }
  return result;
}
