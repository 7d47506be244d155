// Storing a digest (DESIGN §6): `<private>` spans removed from everything derived, the
// conversation's episode upserted, pinned candidates deduplicated against the agent's facts
// (word Jaccard > 0.6, or cosine ≥ 0.9 when vectors are ready) and identity facts appended
// to the always-on overrides. Then new rows are embedded (outside the transaction).
import type { Digest } from '../../../shared/digest.ts';
import type { Logger } from '../logger.ts';
import type { VectorService } from '../services.ts';
import type { Db } from '../store/migrate.ts';
import { upsertConversationEpisode } from '../store/episodes.ts';
import { appendIdentityOverrides } from '../store/identity.ts';
import { bumpPinnedSource, insertPinned, listFactTexts } from '../store/pinned.ts';
import { isOnlyPrivate, stripPrivate } from './private.ts';

export const JACCARD_DUPLICATE = 0.6;
export const COSINE_DUPLICATE = 0.9;
/** How much salience a fact gains when it is stated again. */
export const REPEAT_SALIENCE_BUMP = 0.05;

export function wordSet(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map((w) =>
      w.replace(/['’]s$/, ''),
    ),
  );
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
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
  identityAdded: number;
}

/** Finds an existing fact the candidate duplicates (lexically, or by embedding). */
async function cosineDuplicates(
  vectors: VectorService | null | undefined,
  agentId: string,
  texts: string[],
  logger?: Logger,
): Promise<(number | null)[]> {
  if (!vectors?.isReady()) return texts.map(() => null);
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
  const result = db.transaction((): StoreDigestResult => {
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
    const existing = listFactTexts(db, agentId).map((f) => ({
      id: f.id,
      words: wordSet(f.content),
      episode: f.source_episode_id,
    }));
    const existingIds = new Set(existing.map((f) => f.id));
    const factsAdded: number[] = [];
    const factsBumped: number[] = [];
    digest.pinned_candidates.forEach((c, i) => {
      const words = wordSet(c.content);
      let dup: number | null = null;
      let best = JACCARD_DUPLICATE;
      for (const f of existing) {
        const j = jaccard(words, f.words);
        if (j > best) {
          best = j;
          dup = f.id;
        }
      }
      const cos = cosine[i];
      if (dup === null && cos != null && existingIds.has(cos)) dup = cos;
      if (dup !== null) {
        // A repeat within this digest, or of a fact this same conversation already gave when
        // it was distilled before (more turns arrived), is not a new source.
        const sameSource =
          episodeId !== null && existing.find((f) => f.id === dup)?.episode === episodeId;
        if (!sameSource && !factsAdded.includes(dup) && !factsBumped.includes(dup)) {
          bumpPinnedSource(db, agentId, dup, REPEAT_SALIENCE_BUMP, now);
          factsBumped.push(dup);
        }
        return;
      }
      const id = insertPinned(
        db,
        {
          agentId,
          content: c.content,
          salience: c.salience,
          tags: c.tags,
          pinnedByUser: false,
          sourceEpisodeId: episodeId,
        },
        now,
      );
      factsAdded.push(id);
      addedText.set(id, c.content);
      existing.push({ id, words, episode: episodeId });
    });
    const identityAdded = appendIdentityOverrides(
      db,
      agentId,
      digest.identity_facts,
      now,
      identityKey,
    );
    return { episodeId, factsAdded, factsBumped, identityAdded };
  })();

  const vectors = input.vectors;
  if (vectors) {
    try {
      if (result.episodeId !== null) {
        await vectors.indexRows('episode', [
          { id: result.episodeId, agentId, text: digest.episode.summary },
        ]);
      }
      if (result.factsAdded.length > 0) {
        await vectors.indexRows(
          'pinned',
          result.factsAdded.map((id) => ({ id, agentId, text: addedText.get(id) ?? '' })),
        );
      }
    } catch (err) {
      // The rows are stored; vectors are backfilled once the embedder works again.
      input.logger?.warn('indexing distilled memory failed', { err: (err as Error).message });
    }
  }
  return result;
}
