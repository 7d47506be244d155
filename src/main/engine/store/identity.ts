// Identity repository: per-agent narrative + always-on overrides (DESIGN §3). Tiny, always
// injected by the read path. Every query is scoped by agent_id.
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { stripPrivate } from '../text/private.ts';
import type { Db } from './db.ts';
import { parseJsonList } from './episodes.ts';

export interface IdentityRecord {
  agent_id: string;
  narrative: string;
  overrides: string[];
  /** Milliseconds since the epoch, null when the agent has no identity row yet. */
  updated_at: number | null;
}

interface IdentityRow {
  agent_id: string;
  narrative: string;
  overrides: string;
  updated_at: number | null;
}

// The read path asks for the identity on every proxied request: prepare once per connection
// (keyed weakly by the connection, no global state).
const selectIdentity = new WeakMap<Db, Statement>();

/** The agent's identity; an empty one (narrative '', no overrides) when none is stored. */
export function getIdentity(db: Db, agentId: string): IdentityRecord {
  let select = selectIdentity.get(db);
  if (!select) {
    select = db.prepare(
      'SELECT agent_id, narrative, overrides, updated_at FROM identity WHERE agent_id = ?',
    );
    selectIdentity.set(db, select);
  }
  const row = select.get(agentId) as IdentityRow | undefined;
  if (!row) return { agent_id: agentId, narrative: '', overrides: [], updated_at: null };
  return {
    agent_id: row.agent_id,
    narrative: row.narrative,
    overrides: parseJsonList(row.overrides),
    updated_at: row.updated_at,
  };
}

/**
 * Replaces narrative and/or overrides (fields left undefined are kept). Every write of the
 * identity comes here: private spans are replaced by `[private]` (DESIGN §6).
 */
export function putIdentity(
  db: Db,
  agentId: string,
  patch: { narrative?: string; overrides?: string[] },
  now: number,
): IdentityRecord {
  const current = getIdentity(db, agentId);
  const narrative = stripPrivate(patch.narrative ?? current.narrative);
  const overrides = (patch.overrides ?? current.overrides).map(stripPrivate);
  db.prepare(
    `INSERT INTO identity (agent_id, narrative, overrides, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET narrative = excluded.narrative,
       overrides = excluded.overrides, updated_at = excluded.updated_at`,
  ).run(agentId, narrative, JSON.stringify(overrides), now);
  return { agent_id: agentId, narrative, overrides, updated_at: now };
}

function normalise(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Appends identity facts to the agent's overrides, skipping ones already present (compared
 * case- and punctuation-insensitively). With `keyOf`, a fact whose key matches an existing
 * override's key replaces it in place (a newer "lives in" replaces the older one). Returns
 * how many overrides were added or replaced.
 */
export function appendIdentityOverrides(
  db: Db,
  agentId: string,
  facts: string[],
  now: number,
  keyOf?: (fact: string) => string | null,
): number {
  const current = getIdentity(db, agentId);
  const overrides = [...current.overrides];
  const seen = new Set(overrides.map(normalise));
  let changed = 0;
  for (const f of facts) {
    const text = f.trim();
    const norm = normalise(text);
    if (!norm || seen.has(norm)) continue;
    seen.add(norm);
    const key = keyOf?.(text) ?? null;
    const at = key === null ? -1 : overrides.findIndex((o) => keyOf?.(o) === key);
    if (at >= 0) overrides[at] = text;
    else overrides.push(text);
    changed++;
  }
  if (changed === 0) return 0;
  putIdentity(db, agentId, { overrides }, now);
  return changed;
}

/**
 * Follows a user's edit of a pinned fact into the overrides: the override that states the
 * same text as `from` is replaced by `to`, or removed when `to` is null (the fact was
 * forgotten or disabled). Returns whether an override changed.
 */
export function reviseIdentityOverride(
  db: Db,
  agentId: string,
  from: string,
  to: string | null,
  now: number,
): boolean {
  const current = getIdentity(db, agentId);
  const target = normalise(from);
  if (!target || !current.overrides.some((o) => normalise(o) === target)) return false;
  const replacement = to?.trim() || null;
  const seen = new Set<string>();
  const overrides: string[] = [];
  for (const o of current.overrides) {
    const text = normalise(o) === target ? replacement : o;
    if (text === null) continue;
    const norm = normalise(text);
    if (seen.has(norm)) continue;
    seen.add(norm);
    overrides.push(text);
  }
  putIdentity(db, agentId, { overrides }, now);
  return true;
}
