// LoCoMo recall in a LARGE memory: the small LoCoMo bench holds ~600 rows per agent, far below
// the sizes where the search changes how it matches (pruning and pairing of common terms,
// memory/search.ts matchFor) and where BM25 statistics are dominated by other chat. Here each
// of the three dev conversations is ingested into its own agent, on its own engine (one
// database, as one user's memory), together with ~15k transcript rows of OTHER chat, and its
// questions (category 5 left out) are measured the way bench/locomo.ts does:
//   - recall@10 of the evidence turns from POST /memory/search (transcript, top_k 10);
//   - evidence (or the answer) in the memory block injected into a real proxied chat;
//   - CPU per question: this process's CPU time (all threads: the engine with its writer
//     worker, the scripted upstream and the client) around the proxied chat until its turn is
//     recorded, divided by the questions.
// Production defaults: the heuristic distiller on (the padding is distilled too), the default
// embedder with no download possible (the static word vectors serve), no Core Model.
//
// The padding: sentences of the OTHER two dev conversations, recombined into new turns (1–3
// sentences from different turns, never a verbatim repeat of a turn or of another padding
// turn), spoken by the conversation's OWN two speakers (the other speakers' names in the text
// renamed to them), in sessions dated from a month before the conversation's first session to
// a month after its last, stored between its sessions in date order. Why this source: it is
// the only realistic chat available offline, recombination keeps its vocabulary and sentence
// shapes while giving ~15k distinct rows, and labelling it with the conversation's own
// speakers makes their names as common as they are in a real long memory (a name in a few
// percent of all rows is the case the term pruning has to get right), with other chat about
// the same kinds of topics (trips, pets, jobs, family) as hard negatives. It can hold the
// answer to a question by chance (same speakers, similar topics): that lowers both sides of a
// before/after comparison alike.
//
//   npm run bench -- locomo-large            (about a minute on 2 cores)
//   BENCH_LARGE_ROWS=15000 (transcript rows per agent), BENCH_LARGE_ONLY=conv-26 (one conversation)
import { loadavg } from 'node:os';
import type { EngineHarness } from '../test/helpers/engine-harness.ts';
import type { StatsResponse } from '../src/shared/api.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { formatSteal, stealMeter } from './cpu-steal.ts';
import {
  askThroughProxy,
  type Conversation,
  loadLocomoOrSkip,
  defaultLocomoPath,
  evidenceIds,
  evidenceTest,
  ingestLocomo,
  searchEvidence,
  sessions,
  startLocomoEngine,
  waitForDistilled,
} from './locomo.ts';

type Print = (line: string) => void;

const DEFAULT_ROWS = 15_000;
/** User/assistant pairs per padding session (LoCoMo sessions hold 10–20). */
const PAIRS_PER_SESSION = 20;
const DAY_MS = 86_400_000;
/** Padding sessions are dated from this long before the first session to after the last. */
const MARGIN_MS = 30 * DAY_MS;

/** "1:56 pm on 8 May, 2023" (LoCoMo's session dates) → ms, or NaN. */
export function locomoDate(text: string): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/iu.exec(text);
  if (!m) return NaN;
  const [, hh, mm, ampm, day, month, year] = m as unknown as string[];
  const hour = (Number(hh) % 12) + (ampm!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.parse(`${day} ${month} ${year} ${String(hour).padStart(2, '0')}:${mm}:00 UTC`);
}

const speakersOf = (conv: Conversation): [string, string] => [
  String(conv.conversation.speaker_a),
  String(conv.conversation.speaker_b),
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/**
 * `pairs` user/assistant pairs of recombined chat for `target`, from the other conversations'
 * sentences (their speakers renamed to the target's), no turn repeated.
 */
export function paddingPairs(
  target: Conversation,
  others: readonly Conversation[],
  pairs: number,
  seed: number,
): { user: string; assistant: string }[] {
  const [a, b] = speakersOf(target);
  const own = new Set<string>();
  for (const s of sessions(target)) for (const t of s.turns) own.add(t.text);
  const pool: string[] = [];
  for (const other of others) {
    const [oa, ob] = speakersOf(other);
    const rename = (text: string) =>
      text
        .replace(new RegExp(`\\b${escapeRegExp(oa)}\\b`, 'gu'), a)
        .replace(new RegExp(`\\b${escapeRegExp(ob)}\\b`, 'gu'), b);
    for (const s of sessions(other)) {
      for (const t of s.turns) {
        for (const sentence of t.text.split(/(?<=[.!?])\s+/u)) {
          const clean = sentence.trim();
          if (clean !== '') pool.push(rename(clean));
        }
      }
    }
  }
  // Seeded: the same padding on every run.
  const rand = seededRandom(seed);
  const seen = new Set<string>(own);
  const turn = (): string => {
    for (;;) {
      const n = 1 + Math.floor(rand() * 3);
      const text = Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]).join(
        ' ',
      );
      if (!seen.has(text)) {
        seen.add(text);
        return text;
      }
    }
  };
  return Array.from({ length: pairs }, () => ({
    user: `${a}: ${turn()}`,
    assistant: `${b}: ${turn()}`,
  }));
}

interface PaddingSession {
  at: number;
  pairs: { user: string; assistant: string }[];
}

/** The padding cut into sessions, dated evenly over the conversation's span and margins. */
function paddingSessions(conv: Conversation, pairs: PaddingSession['pairs']): PaddingSession[] {
  const dates = sessions(conv)
    .map((s) => locomoDate(s.date))
    .filter((d) => Number.isFinite(d));
  const first = Math.min(...dates) - MARGIN_MS;
  const last = Math.max(...dates) + MARGIN_MS;
  const count = Math.ceil(pairs.length / PAIRS_PER_SESSION);
  return Array.from({ length: count }, (_, i) => ({
    at: first + ((last - first) * (i + 0.5)) / count,
    pairs: pairs.slice(i * PAIRS_PER_SESSION, (i + 1) * PAIRS_PER_SESSION),
  }));
}

async function ingestPadding(
  h: EngineHarness,
  agent: string,
  padding: PaddingSession[],
  index: number,
): Promise<void> {
  const s = padding[index] as PaddingSession;
  const res = await h.api('POST', '/memory/ingest', {
    agent_id: agent,
    conversation_id: `padding-${index}`,
    session_date: new Date(s.at).toISOString(),
    turns: s.pairs,
  });
  if (res.status !== 200) throw new Error(`ingest failed: ${JSON.stringify(res.body)}`);
  await h.idle();
}

interface LargeFigures {
  id: string;
  rows: number;
  facts: number;
  episodes: number;
  questions: number;
  recall10: number;
  inBlock: number;
  injected: number;
  cpuMs: number;
  ingestSeconds: number;
}

async function measureConversation(
  data: Conversation[],
  index: number,
  rows: number,
): Promise<LargeFigures> {
  const conv = data[index] as Conversation;
  const others = data.filter((_, i) => i !== index);
  const convTurns = sessions(conv).reduce((n, s) => n + s.turns.length, 0);
  const pairs = Math.max(0, Math.round((rows - convTurns) / 2));
  const padding = paddingSessions(conv, paddingPairs(conv, others, pairs, 1_000 + index));
  const h = await startLocomoEngine('production');
  try {
    const t0 = performance.now();
    // Padding dated before each session is stored before it; the rest after the last one.
    let next = 0;
    const [ingested] = await ingestLocomo(h, [conv], 'production', 'large-', async (agent, s) => {
      const at = locomoDate(s.date);
      while (next < padding.length && (padding[next] as PaddingSession).at < at) {
        await ingestPadding(h, agent, padding, next++);
      }
    });
    if (!ingested) throw new Error('nothing ingested');
    while (next < padding.length) await ingestPadding(h, ingested.agent, padding, next++);
    await waitForDistilled(h, ingested.agent);
    const ingestSeconds = (performance.now() - t0) / 1000;
    const stats = (await h.api<StatsResponse>('GET', '/memory/stats')).body;

    let questions = 0;
    let recall10 = 0;
    let inBlock = 0;
    let injected = 0;
    let cpuMicros = 0;
    for (const [qi, qa] of conv.qa.entries()) {
      if (qa.category === 5) continue;
      const evidence = evidenceIds(qa, ingested.idOf);
      if (evidence.length === 0) continue;
      questions++;
      recall10 += (await searchEvidence(h, ingested.agent, qa.question, evidence)).recall(10);
      const cpu0 = process.cpuUsage();
      const block = await askThroughProxy(h, ingested.agent, qi, qa.question);
      const cpu = process.cpuUsage(cpu0);
      cpuMicros += cpu.user + cpu.system;
      if (block !== '') {
        injected++;
        if (evidenceTest(qa, ingested.textOf)(block)) inBlock++;
      }
    }
    return {
      id: conv.sample_id,
      rows: stats.transcript,
      facts: stats.pinned,
      episodes: stats.episodes,
      questions,
      recall10: recall10 / questions,
      inBlock: inBlock / questions,
      injected,
      cpuMs: cpuMicros / 1000 / questions,
      ingestSeconds,
    };
  } finally {
    await h.stop();
  }
}

export async function runLocomoLargeBench(
  print: Print,
  path: string = defaultLocomoPath(),
): Promise<void> {
  const data = loadLocomoOrSkip(print, path);
  if (!data) return;
  if (data.length < 2) throw new Error('the padding needs at least two conversations');
  const rows = Number(process.env.BENCH_LARGE_ROWS ?? DEFAULT_ROWS);
  const only = process.env.BENCH_LARGE_ONLY;
  print(
    `  load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ~${rows} transcript rows per agent, one engine each, production defaults`,
  );
  const steal = stealMeter();
  const all: LargeFigures[] = [];
  for (const [i, conv] of data.entries()) {
    if (only !== undefined && conv.sample_id !== only) continue;
    const f = await measureConversation(data, i, rows);
    all.push(f);
    print(
      `  ${f.id} (${f.rows} rows, ${f.facts} facts, ${f.episodes} episodes; ${f.questions} q): recall@10 ${f.recall10.toFixed(3)}; ` +
        `evidence in block ${f.inBlock.toFixed(3)} (injected ${f.injected}/${f.questions}); ` +
        `CPU ${f.cpuMs.toFixed(2)} ms per proxied question; ingest ${f.ingestSeconds.toFixed(0)} s`,
    );
  }
  const mean = (k: 'recall10' | 'inBlock' | 'cpuMs') =>
    all.reduce((a, f) => a + f[k], 0) / Math.max(1, all.length);
  const questions = all.reduce((a, f) => a + f.questions, 0);
  const perQuestion = (k: 'recall10' | 'inBlock' | 'cpuMs') =>
    all.reduce((a, f) => a + f[k] * f.questions, 0) / Math.max(1, questions);
  print(
    `  mean of the conversations: recall@10 ${mean('recall10').toFixed(3)}; evidence in block ${mean('inBlock').toFixed(3)}; ` +
      `CPU ${mean('cpuMs').toFixed(2)} ms per question`,
  );
  print(
    `  all ${questions} questions: recall@10 ${perQuestion('recall10').toFixed(3)}; evidence in block ${perQuestion('inBlock').toFixed(3)}; ` +
      `CPU ${perQuestion('cpuMs').toFixed(2)} ms per question${formatSteal(steal())}`,
  );
}
