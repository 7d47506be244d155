// Lenient parsing of the Core Model's digest (DESIGN §6). Models wrap JSON in prose or code
// fences, cut it off at the token limit, or use near-miss types; we recover what is safe to
// recover and let the shared zod schema decide the rest.
import { Digest } from '../../../shared/digest.ts';

export type DigestParseResult = { ok: true; digest: Digest } | { ok: false; error: string };

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Closes a JSON object cut off mid-way: backs up to the last complete member (a `,` outside
 * strings) and appends the missing closers. Tries a few cut points, latest first.
 */
export function repairTruncatedJson(text: string): unknown {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  const s = text.slice(start);
  const cuts: { pos: number; closers: string }[] = [];
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      stack.pop();
      if (stack.length === 0) return tryParse(s.slice(0, i + 1));
      cuts.push({ pos: i + 1, closers: [...stack].reverse().join('') });
    } else if (c === ',') {
      cuts.push({ pos: i, closers: [...stack].reverse().join('') });
    }
  }
  for (let k = cuts.length - 1, tries = 0; k >= 0 && tries < 40; k--, tries++) {
    const cut = cuts[k]!;
    const v = tryParse(s.slice(0, cut.pos) + cut.closers);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** Finds a JSON object in model output: raw, fenced ```json blocks, first `{` to last `}`. */
export function extractJsonObject(text: string): unknown {
  const trimmed = text.trim();
  const raw = tryParse(trimmed);
  if (isObject(raw)) return raw;
  for (const m of trimmed.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) {
    const v = tryParse((m[1] ?? '').trim());
    if (isObject(v)) return v;
  }
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  if (first >= 0 && last > first) {
    const v = tryParse(trimmed.slice(first, last + 1));
    if (isObject(v)) return v;
  }
  // An unterminated fence or a reply cut off at the token limit.
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*)$/.exec(trimmed);
  const repaired = repairTruncatedJson(fenced ? (fenced[1] ?? '') : trimmed);
  return isObject(repaired) ? repaired : undefined;
}

function toText(v: unknown, max: number): string | null {
  if (typeof v === 'string') {
    const t = v.trim();
    return t ? t.slice(0, max) : null;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isObject(v)) {
    for (const k of ['content', 'text', 'fact', 'value', 'name', 'description']) {
      if (typeof v[k] === 'string') return toText(v[k], max);
    }
  }
  return null;
}

function toTextList(v: unknown, max: number, maxItems: number): string[] {
  if (v === undefined || v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const item of items) {
    const t = toText(item, max);
    if (t && !out.includes(t)) out.push(t);
    if (out.length >= maxItems) break;
  }
  return out;
}

export function coerceSalience(v: unknown, fallback = 0.5): number {
  let n = typeof v === 'number' ? v : typeof v === 'string' ? Number.parseFloat(v) : NaN;
  if (!Number.isFinite(n)) return fallback;
  // "salience": 7 on a 0-10 scale, or 70 as a percentage.
  if (n > 1 && n <= 10) n = n / 10;
  else if (n > 10 && n <= 100) n = n / 100;
  return Math.min(1, Math.max(0, n));
}

function pick(o: Record<string, unknown>, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
}

/** Near-miss shapes → the Digest shape, where the fix cannot change the meaning. */
export function coerceDigest(value: unknown): unknown {
  if (!isObject(value)) return value;
  let ep = pick(value, 'episode', 'Episode');
  if (!isObject(ep) && typeof value.summary === 'string') ep = value;
  if (typeof ep === 'string') ep = { summary: ep };
  const episode = isObject(ep)
    ? {
        summary: toText(ep.summary, 20_000) ?? '',
        topics: toTextList(ep.topics, 200, 50),
        entities: toTextList(ep.entities, 200, 50),
        decisions: toTextList(ep.decisions, 2000, 50),
        action_items: toTextList(pick(ep, 'action_items', 'actionItems', 'actions'), 2000, 50),
        salience: coerceSalience(ep.salience),
      }
    : undefined;
  const rawCandidates = pick(value, 'pinned_candidates', 'pinnedCandidates', 'facts', 'pinned');
  const candidates = (
    Array.isArray(rawCandidates) ? rawCandidates : rawCandidates == null ? [] : [rawCandidates]
  )
    .map((c: unknown) => {
      const content = toText(c, 2000);
      if (!content) return null;
      const o = isObject(c) ? c : {};
      return {
        content,
        salience: coerceSalience(o.salience),
        tags: toTextList(o.tags, 50, 20),
      };
    })
    .filter((c) => c !== null)
    .slice(0, 100);
  return {
    episode,
    pinned_candidates: candidates,
    identity_facts: toTextList(
      pick(value, 'identity_facts', 'identityFacts', 'identity'),
      2000,
      50,
    ),
  };
}

export function parseDigest(text: string): DigestParseResult {
  const obj = extractJsonObject(text);
  if (obj === undefined) return { ok: false, error: 'no JSON object in the Core Model reply' };
  const parsed = Digest.safeParse(coerceDigest(obj));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      error: `digest does not match the schema: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    };
  }
  return { ok: true, digest: parsed.data };
}
