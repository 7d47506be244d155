// Retrieval quality on LoCoMo (Maharana et al., ACL 2024), the way a user would feel it:
// three long conversations are ingested through the real server (POST /memory/ingest, one
// agent per conversation, speaker names kept in the text, session dates), then for each
// question (category 5, adversarial, excluded):
//   - POST /memory/search (transcript, top_k 10) → recall@5 / recall@10 of the evidence turns
//     (share of a question's evidence turns found, averaged) and hit@10 (at least one found),
//     plus the tokens the 10 results cost;
//   - a real POST /v1/chat/completions with the agent header; the scripted upstream records
//     what it was sent → is an evidence turn (or the answer) inside the injected block, and
//     how many tokens the block used;
// then ~20 unrelated prompts → how many got a memory block (target 0), and a plain BM25
// baseline over the same turns (unstemmed FTS5, the question as an OR query).
// Two runs, side by side:
//   - production defaults, as a user runs Cairn offline: ingest without skip_extraction (the
//     heuristic distiller stores facts and episodes), the engine's default embedder with no
//     download possible (its sentence model fails; the static word vectors serve);
//   - lexical only, as this bench measured before: skip_extraction, no embedder (FTS5).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EngineHarness, startEngine } from '../test/helpers/engine-harness.ts';
import type { EngineConfig } from '../src/main/engine/engine.ts';
import type { DiagnosticsResponse, EmbedderStateDto, SearchResponse } from '../src/shared/api.ts';
import { countTokens } from '../src/main/engine/memory/tokens.ts';
import { buildMatchExpression, words } from '../src/main/engine/text/text.ts';
import { createPlainBm25Baseline } from '../src/main/engine/store/search.ts';
import { deleteConversation, listTranscript } from '../src/main/engine/store/transcript.ts';
import { formatSteal, stealMeter } from './cpu-steal.ts';
import { memoryBlockOf, messageText } from './memory-block.ts';
import { pollUntil, waitForEmbedders } from './wait.ts';

type Print = (line: string) => void;

export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
export interface Qa {
  question: string;
  answer?: string | number;
  evidence: string[];
  category: number;
}
export interface Conversation {
  sample_id: string;
  qa: Qa[];
  conversation: Record<string, unknown>;
}

const PROMPTS_DIR = join(import.meta.dirname, '..', 'test', 'fixtures', 'prompts');
const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(join(PROMPTS_DIR, name), 'utf8')) as T;

/** Prompts that must get no memory (test/fixtures/prompts/unrelated.json, also a test). */
export const UNRELATED_PROMPTS: readonly string[] = fixture<string[]>('unrelated.json');
/** Questions about the user's own life, asked of a plain user/assistant chat memory. */
export const MEMORY_QUESTIONS: readonly string[] = fixture<string[]>('memory-questions.json');
interface PersonalChat {
  sessions: { date: string; turns: { user: string; assistant: string }[] }[];
}
const PERSONAL_CHAT = fixture<PersonalChat>('personal-chat.json');

export function defaultLocomoPath(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return process.env.CAIRN_LOCOMO ?? join(here, '..', '..', 'shared', 'bench', 'locomo-dev.json');
}

export function sessions(conv: Conversation): { n: number; date: string; turns: Turn[] }[] {
  const out: { n: number; date: string; turns: Turn[] }[] = [];
  for (let n = 1; Array.isArray(conv.conversation[`session_${n}`]); n++) {
    out.push({
      n,
      date: String(conv.conversation[`session_${n}_date_time`] ?? ''),
      turns: conv.conversation[`session_${n}`] as Turn[],
    });
  }
  return out;
}

/**
 * Every turn of a LoCoMo file as `speaker: text`, and its questions that have an answer
 * (category 5, the adversarial ones, left out): text for benches that only need a lot of chat.
 */
export function locomoTurnsAndQuestions(path: string): { turns: string[]; questions: string[] } {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Conversation[];
  const turns: string[] = [];
  const questions: string[] = [];
  for (const conv of data) {
    for (const session of sessions(conv)) {
      for (const t of session.turns) turns.push(`${t.speaker}: ${t.text}`);
    }
    for (const q of conv.qa) if (q.category !== 5) questions.push(q.question);
  }
  return { turns, questions };
}

/** A turn as a chat client that keeps speaker names would send it. */
export function turnText(t: Turn): string {
  return t.blip_caption
    ? `${t.speaker}: ${t.text} [shares an image: ${t.blip_caption}]`
    : `${t.speaker}: ${t.text}`;
}

const norm = (s: string) => s.replace(/\s+/gu, ' ').trim().toLowerCase();

export type LocomoMode = 'production' | 'lexical';

interface ModeSetup {
  label: string;
  config: Partial<EngineConfig>;
  skipExtraction: boolean;
}

export const LOCOMO_MODES: Readonly<Record<LocomoMode, ModeSetup>> = {
  production: {
    label: 'production defaults (distiller on, default embedder offline)',
    // The default backend and model; only the download is impossible, as without network.
    config: { embedder: { allowRemoteModels: false } },
    skipExtraction: false,
  },
  lexical: {
    label: 'lexical only (FTS5, skip_extraction)',
    config: { embedder: { backend: 'none' } },
    skipExtraction: true,
  },
};

/** A started engine for one mode, once its embedders have settled (loaded or failed). */
export async function startLocomoEngine(mode: LocomoMode): Promise<EngineHarness> {
  const h = await startEngine({ config: LOCOMO_MODES[mode].config });
  h.upstream.setDefault(() => ({ kind: 'chat', content: 'ok' }));
  await waitForEmbedders(
    async () => (await h.api<{ embedder: EmbedderStateDto }>('GET', '/health')).body,
  );
  return h;
}

/**
 * Called before each session of a conversation is ingested (locomo-large stores other chat
 * of the same agent between the sessions, as a long-lived memory holds it).
 */
export type BeforeSession = (
  agent: string,
  session: { n: number; date: string; turns: Turn[] },
) => Promise<void>;

export interface IngestedConversation {
  conv: Conversation;
  agent: string;
  /** dia_id → transcript row id, and → the stored text. */
  idOf: Map<string, number>;
  textOf: Map<string, string>;
}

/**
 * Ingests every session of every conversation (one agent each) and, with extraction on,
 * waits until the distiller has taken all of them.
 */
export async function ingestLocomo(
  h: EngineHarness,
  data: Conversation[],
  mode: LocomoMode,
  agentPrefix = 'locomo-',
  beforeSession?: BeforeSession,
): Promise<IngestedConversation[]> {
  const { skipExtraction } = LOCOMO_MODES[mode];
  const ingested: IngestedConversation[] = [];
  for (const conv of data) {
    const agent = `${agentPrefix}${conv.sample_id}`;
    const idOf = new Map<string, number>();
    const textOf = new Map<string, string>();
    for (const s of sessions(conv)) {
      await beforeSession?.(agent, s);
      const conversationId = `${conv.sample_id}-session-${s.n}`;
      const pairs: { user: string; assistant: string }[] = [];
      for (let i = 0; i < s.turns.length; i += 2) {
        const a = s.turns[i] as Turn;
        const b = s.turns[i + 1];
        pairs.push({ user: turnText(a), assistant: b ? turnText(b) : '' });
      }
      const res = await h.api('POST', '/memory/ingest', {
        agent_id: agent,
        conversation_id: conversationId,
        session_date: s.date,
        skip_extraction: skipExtraction,
        turns: pairs,
      });
      if (res.status !== 200) throw new Error(`ingest failed: ${JSON.stringify(res.body)}`);
      await h.idle();
      // Rows are stored in turn order: map dia_id → transcript row id.
      const rows = listTranscript(h.services.db, {
        agentId: agent,
        conversationId,
        limit: 1000,
        offset: 0,
        order: 'asc',
      }).items;
      s.turns.forEach((t, i) => {
        const row = rows[i];
        if (row && row.content === turnText(t)) {
          idOf.set(t.dia_id, row.id);
          textOf.set(t.dia_id, row.content);
        }
      });
    }
    if (!skipExtraction) await waitForDistilled(h, agent);
    ingested.push({ conv, agent, idOf, textOf });
  }
  return ingested;
}

/** Polls the diagnostics until no signal of the agent is pending or being processed. */
export async function waitForDistilled(h: EngineHarness, agent: string): Promise<void> {
  await pollUntil(async () => {
    await h.idle();
    const d = await h.api<DiagnosticsResponse>('GET', '/memory/diagnostics?limit=500');
    const left = d.body.pending.filter((p) => p.agent_id === agent).length;
    return left === 0 ? null : `${left} signals of ${agent} not distilled`;
  }, 300_000);
}

interface ConversationFigures {
  id: string;
  questions: number;
  recall10: number;
  inBlock: number;
}

interface LocomoFigures {
  perConversation: ConversationFigures[];
  questions: number;
  r5: number;
  r10: number;
  hit10: number;
  baselineR10: number;
  baselineHit10: number;
  resultTokens: number;
  inBlock: number;
  injected: number;
  blockTokens: number;
  maxTokens: number;
  small: string[];
  unrelatedInjected: number;
  unrelatedTotal: number;
  unrelatedHit: number[];
  memoryInjected: number;
  memoryMissed: number[];
  seconds: { ingest: number; questions: number; rest: number };
  embedder: string;
}

/** The whole measurement in one mode, on its own engine. */
async function measureLocomo(data: Conversation[], mode: LocomoMode): Promise<LocomoFigures> {
  const h = await startLocomoEngine(mode);
  const t0 = performance.now();
  let questions = 0;
  let r5 = 0;
  let r10 = 0;
  let hit10 = 0;
  let baseR10 = 0;
  let baseHit10 = 0;
  let resultTokens = 0;
  let inBlock = 0;
  let injected = 0;
  let blockTokens = 0;
  let maxTokens = 0;
  const perConversation: ConversationFigures[] = [];
  const asked: { agent: string; question: string; holdsEvidence: (t: string) => boolean }[] = [];
  try {
    // Every conversation is stored before any question is asked: FTS5's BM25 statistics span
    // the whole table (all agents), so a conversation searched before the others are stored
    // scores better than it does in a full memory.
    const ingested = await ingestLocomo(h, data, mode);
    const t1 = performance.now();

    for (const { conv, agent, idOf, textOf } of ingested) {
      let cq = 0;
      let cr10 = 0;
      let cBlock = 0;
      // The baseline's unstemmed index, over the rows ingested so far (all agents).
      const baseline = createPlainBm25Baseline(h.services.db);
      for (const [qi, qa] of conv.qa.entries()) {
        if (qa.category === 5) continue;
        const evidence = evidenceIds(qa, idOf);
        if (evidence.length === 0) continue;
        questions++;
        cq++;
        const searched = await searchEvidence(h, agent, qa.question, evidence);
        r5 += searched.recall(5);
        r10 += searched.recall(10);
        cr10 += searched.recall(10);
        if (searched.recall(10) > 0) hit10++;
        resultTokens += searched.resultTokens;

        const match = buildMatchExpression([...new Set(words(qa.question))]);
        const base = match === null ? [] : baseline.search({ agentId: agent, match, limit: 10 });
        const baseFound = evidence.filter((e) => base.includes(e)).length;
        baseR10 += baseFound / evidence.length;
        if (baseFound > 0) baseHit10++;

        const block = await askThroughProxy(h, agent, qi, qa.question);
        const holdsEvidence = evidenceTest(qa, textOf);
        if (block !== '') {
          injected++;
          const tokens = countTokens(block);
          blockTokens += tokens;
          maxTokens = Math.max(maxTokens, tokens);
          if (holdsEvidence(block)) {
            inBlock++;
            cBlock++;
          }
        }
        asked.push({ agent, question: qa.question, holdsEvidence });
      }
      baseline.close();
      perConversation.push({
        id: conv.sample_id,
        questions: cq,
        recall10: cr10 / cq,
        inBlock: cBlock / cq,
      });
    }
    const t2 = performance.now();

    // A plain user/assistant chat memory, distilled by the heuristic distiller (both modes).
    const personal = 'bench-personal-chat';
    for (const [n, session] of PERSONAL_CHAT.sessions.entries()) {
      const res = await h.api('POST', '/memory/ingest', {
        agent_id: personal,
        conversation_id: `personal-${n}`,
        session_date: session.date,
        turns: session.turns,
      });
      if (res.status !== 200) throw new Error(`ingest failed: ${JSON.stringify(res.body)}`);
      await h.idle();
    }
    await waitForDistilled(h, personal);
    let memoryInjected = 0;
    const memoryMissed: number[] = [];
    for (const [i, question] of MEMORY_QUESTIONS.entries()) {
      const conversationId = `bench-memory-${i}`;
      if ((await proxiedBlock(h, personal, conversationId, question)) !== '') memoryInjected++;
      else memoryMissed.push(i);
      await h.idle();
      deleteConversation(h.services.db, personal, conversationId);
    }

    // Every unrelated prompt against every agent: the names in memory differ per agent.
    const agents = [...data.map((c) => `locomo-${c.sample_id}`), personal];
    let unrelatedInjected = 0;
    const unrelatedHit = new Set<number>();
    for (const agent of agents) {
      for (const [i, prompt] of UNRELATED_PROMPTS.entries()) {
        const conversationId = `bench-unrelated-${i}`;
        if ((await proxiedBlock(h, agent, conversationId, prompt)) !== '') {
          unrelatedInjected++;
          unrelatedHit.add(i);
        }
        await h.idle();
        deleteConversation(h.services.db, agent, conversationId);
      }
    }

    // Small budgets: the same questions through POST /memory/context, the block's real token
    // count checked against the budget.
    const small: string[] = [];
    for (const budget of [100, 200, 300]) {
      const put = await h.api('PUT', '/settings', { memoryBudgetTokens: budget });
      if (put.status !== 200) throw new Error(`settings failed: ${JSON.stringify(put.body)}`);
      let found = 0;
      let over = 0;
      let spent = 0;
      let blocks = 0;
      for (const q of asked) {
        const r = await h.api<{ block: string }>('POST', '/memory/context', {
          agent_id: q.agent,
          message: q.question,
        });
        if (r.body.block === '') continue;
        blocks++;
        const tokens = countTokens(r.body.block);
        spent += tokens;
        if (tokens > budget) over++;
        if (q.holdsEvidence(r.body.block)) found++;
      }
      small.push(
        `${budget}: evidence ${(found / asked.length).toFixed(3)}, ` +
          `${blocks ? (spent / blocks).toFixed(0) : 0} tokens, ${over} over`,
      );
    }
    await h.api('PUT', '/settings', { memoryBudgetTokens: 800 });
    const health = await h.api<{ embedder: EmbedderStateDto }>('GET', '/health');
    const e = health.body.embedder;

    return {
      perConversation,
      questions,
      r5,
      r10,
      hit10,
      baselineR10: baseR10,
      baselineHit10: baseHit10,
      resultTokens,
      inBlock,
      injected,
      blockTokens,
      maxTokens,
      small,
      unrelatedInjected,
      unrelatedTotal: UNRELATED_PROMPTS.length * agents.length,
      unrelatedHit: [...unrelatedHit],
      memoryInjected,
      memoryMissed,
      seconds: {
        ingest: (t1 - t0) / 1000,
        questions: (t2 - t1) / 1000,
        rest: (performance.now() - t2) / 1000,
      },
      embedder: `${e.status}${e.active ? `, active ${e.active}` : ''}`,
    };
  } finally {
    await h.stop();
  }
}

/** The LoCoMo conversations at `path`, or null (and a line saying so) when the file is missing. */
export function loadLocomoOrSkip(print: Print, path: string): Conversation[] | null {
  if (!existsSync(path)) {
    print(`  skipped: no LoCoMo data at ${path} (set CAIRN_LOCOMO to its path)`);
    return null;
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Conversation[];
}

export async function runLocomoBench(
  print: Print,
  path: string = defaultLocomoPath(),
): Promise<void> {
  const data = loadLocomoOrSkip(print, path);
  if (!data) return;
  const steal = stealMeter();
  const prod = await measureLocomo(data, 'production');
  const lex = await measureLocomo(data, 'lexical');
  const both = (f: (x: LocomoFigures) => string) => `${f(prod).padStart(7)} | ${f(lex)}`;
  const q = prod.questions;
  const rate = (x: number) => (x / q).toFixed(3);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  print(
    `LoCoMo retrieval (${data.length} conversations, ${q} questions): ` +
      `production defaults | lexical only`,
  );
  print(`  production: ${LOCOMO_MODES.production.label}; embedder ${prod.embedder}`);
  print(`  lexical:    ${LOCOMO_MODES.lexical.label}; embedder ${lex.embedder}`);
  for (const [i, c] of prod.perConversation.entries()) {
    const l = lex.perConversation[i]!;
    print(
      `  ${c.id} (${c.questions} q): recall@10 ${c.recall10.toFixed(3)} | ${l.recall10.toFixed(3)}; ` +
        `evidence in block ${c.inBlock.toFixed(3)} | ${l.inBlock.toFixed(3)}`,
    );
  }
  const convMean = (x: LocomoFigures, k: 'recall10' | 'inBlock') =>
    mean(x.perConversation.map((c) => c[k])).toFixed(3);
  print(
    `  mean of the conversations: recall@10 ${convMean(prod, 'recall10')} | ${convMean(lex, 'recall10')}; ` +
      `evidence in block ${convMean(prod, 'inBlock')} | ${convMean(lex, 'inBlock')}`,
  );
  print(
    `  all questions: recall@5 ${both((x) => rate(x.r5))}  recall@10 ${both((x) => rate(x.r10))}  ` +
      `hit@10 ${both((x) => rate(x.hit10))}  (target recall@10 >= 0.70)`,
  );
  print(
    `  plain BM25 baseline:       recall@10 ${rate(lex.baselineR10)}  hit@10 ${rate(lex.baselineHit10)}`,
  );
  print(`  tokens of the 10 results:  ${both((x) => (x.resultTokens / q).toFixed(0))}`);
  print(
    `  proxy: evidence in injected block ${both((x) => rate(x.inBlock))} (target >= 0.60); ` +
      `injected for ${both((x) => `${x.injected}/${q}`)} questions; block tokens mean ` +
      `${both((x) => (x.injected ? x.blockTokens / x.injected : 0).toFixed(0))}, max ${both((x) => String(x.maxTokens))} (budget 800)`,
  );
  print(`  smaller budgets (/memory/context), production: ${prod.small.join('; ')}`);
  print(`                                     lexical:    ${lex.small.join('; ')}`);
  print(
    `  unrelated prompts with memory injected: ${both((x) => `${x.unrelatedInjected}/${x.unrelatedTotal}`)} (target 0)` +
      (prod.unrelatedHit.length + lex.unrelatedHit.length > 0
        ? `; prompt #${[...new Set([...prod.unrelatedHit, ...lex.unrelatedHit])].join(', #')}`
        : ''),
  );
  print(
    `  memory questions to a plain user/assistant chat: ${both((x) => `${x.memoryInjected}/${MEMORY_QUESTIONS.length}`)} got memory` +
      (prod.memoryMissed.length > 0
        ? ` (production missed #${prod.memoryMissed.join(', #')})`
        : ''),
  );
  print(
    `  took: ingest ${both((x) => x.seconds.ingest.toFixed(1))} s; questions ${both((x) => x.seconds.questions.toFixed(1))} s; ` +
      `the rest ${both((x) => x.seconds.rest.toFixed(1))} s${formatSteal(steal())}`,
  );
}

/** The transcript row ids of a question's evidence turns that were stored. */
export function evidenceIds(qa: Qa, idOf: ReadonlyMap<string, number>): number[] {
  return qa.evidence.map((e) => idOf.get(e)).filter((x): x is number => !!x);
}

/**
 * POST /memory/search (transcript, top_k 10) for a question: `recall(k)` is the share of the
 * evidence rows among the first k results; `resultTokens` what the 10 results cost.
 */
export async function searchEvidence(
  h: EngineHarness,
  agent: string,
  question: string,
  evidence: readonly number[],
): Promise<{ recall(k: number): number; resultTokens: number }> {
  const res = await h.api<SearchResponse>('POST', '/memory/search', {
    agent_id: agent,
    scope: 'transcript',
    query: question,
    top_k: 10,
  });
  if (res.status !== 200) throw new Error(`search failed: ${JSON.stringify(res.body)}`);
  const ids = res.body.results.map((r) => r.id);
  return {
    recall: (k) => evidence.filter((e) => ids.slice(0, k).includes(e)).length / evidence.length,
    resultTokens: countTokens(res.body.results.map((r) => r.content).join('\n')),
  };
}

/**
 * The question through the proxy, its memory block returned once the turn is recorded; the
 * recorded turn is removed afterwards so that questions never find each other.
 */
export async function askThroughProxy(
  h: EngineHarness,
  agent: string,
  qi: number,
  question: string,
): Promise<string> {
  const conversationId = `bench-question-${qi}`;
  const block = await proxiedBlock(h, agent, conversationId, question);
  await h.idle();
  deleteConversation(h.services.db, agent, conversationId);
  return block;
}

/** Whether a block holds one of the question's evidence turns (or its answer). */
export function evidenceTest(
  qa: Qa,
  textOf: ReadonlyMap<string, string>,
): (block: string) => boolean {
  const evidenceTexts = qa.evidence.map((e) => textOf.get(e)).filter((x): x is string => !!x);
  return (text: string): boolean => {
    const b = norm(text);
    const answer = qa.answer === undefined ? '' : norm(String(qa.answer));
    return evidenceTexts.some((t) => b.includes(norm(t))) || (answer !== '' && b.includes(answer));
  };
}

/** Sends one user message through the proxy and returns the memory block it was given. */
async function proxiedBlock(
  h: EngineHarness,
  agent: string,
  conversationId: string,
  message: string,
): Promise<string> {
  const before = h.upstream.chatRequests().length;
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.token}`,
      'content-type': 'application/json',
      'x-osaurus-agent-id': agent,
      'x-osaurus-conversation-id': conversationId,
    },
    body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: message }] }),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`chat failed with ${res.status}`);
  // The request this message went out in (a Core Model request may have arrived meanwhile).
  for (const r of h.upstream.chatRequests().slice(before)) {
    const body = r.body as { messages?: { role: string; content: unknown }[] } | undefined;
    const text = messageText(body?.messages?.at(-1)?.content);
    if (text.includes(message)) return memoryBlockOf(text);
  }
  throw new Error('the upstream did not receive the question');
}
