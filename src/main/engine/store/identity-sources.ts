// Which pinned fact states an identity override (issue 12: an identity line that was injected
// counts as a use of its fact). The distiller stores an identity fact both as an override and
// as a pinned fact with the same text, and the planner drops the fact's line as a repeat of
// the override's, so the fact itself is never "used" unless the override is traced back to it.
import { createHash } from 'node:crypto';
import type { Db } from './db.ts';
import { cachedStatement } from './statement-cache.ts';

/** Letters and digits of a text: what the FTS phrase is made of. */
const WORD = /[\p{L}\p{N}]+/gu;

/** Case, surrounding space and punctuation do not make another fact. */
function normalise(text: string): string {
  return (text.match(WORD) ?? []).join(' ').toLowerCase();
}

/** An FTS5 phrase query for the words of `text` (each word quoted: no operator can slip in). */
function phraseOf(text: string): string | null {
  const words = text.match(WORD);
  if (!words || words.length === 0) return null;
  return words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' + ');
}

/**
 * The active pinned fact of this agent whose text is the same as each given text (compared
 * without case and punctuation), by the text's index; texts with no such fact are absent.
 * Found through the FTS index (a phrase of the text's words), so the cost does not grow with
 * the number of facts the agent has.
 */
export function pinnedFactsStating(
  db: Db,
  agentId: string,
  texts: readonly string[],
): Map<number, number> {
  const found = new Map<number, number>();
  const known = knownFacts(db);
  const check = cachedStatement(
    db,
    `SELECT content FROM pinned_facts WHERE id = ? AND agent_id = ? AND status = 'active'`,
  );
  const select = cachedStatement(
    db,
    `SELECT p.id, p.content FROM pinned_stem_fts
       CROSS JOIN pinned_facts p ON p.id = pinned_stem_fts.rowid
      WHERE pinned_stem_fts MATCH ? AND p.agent_id = ? AND p.status = 'active'
      ORDER BY p.pinned_by_user DESC, p.salience DESC, p.id DESC LIMIT 20`,
  );
  texts.forEach((text, i) => {
    const phrase = phraseOf(text);
    if (phrase === null) return;
    const target = normalise(text);
    const key = createHash('sha256').update(`${agentId}\0${target}`).digest('base64');
    const before = known.get(key);
    if (before !== undefined) {
      const row = check.get(before, agentId) as { content: string } | undefined;
      if (row && normalise(row.content) === target) {
        found.set(i, before);
        return;
      }
      known.delete(key);
    }
    const rows = select.all(`content : (${phrase})`, agentId) as { id: number; content: string }[];
    const match = rows.find((r) => normalise(r.content) === target);
    if (!match) return;
    found.set(i, match.id);
    if (known.size >= KNOWN_ENTRIES) known.clear();
    known.set(key, match.id);
  });
  return found;
}

/**
 * The fact found for each text, kept between calls: an agent's identity lines come with every
 * request that shows them, and the index search costs more than the whole rest of recording
 * the request. A kept fact is read again by its primary key before it is used (still this
 * agent's, active, and stating the same words), so an edit, a deactivation or a forget counts
 * at once; a text with no fact is searched every time, so a new one is found. Keyed by a hash
 * of the agent and the words: no memory content is kept here.
 */
const knownByDb = new WeakMap<Db, Map<string, number>>();
const KNOWN_ENTRIES = 1024;

function knownFacts(db: Db): Map<string, number> {
  let known = knownByDb.get(db);
  if (!known) knownByDb.set(db, (known = new Map()));
  return known;
}
