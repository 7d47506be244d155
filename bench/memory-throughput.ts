// What the memory path costs (issue 11, performance): a real `cairn serve` child with production
// defaults (CAIRN_CORE_MODEL=off, the default embedder with no network, so the static word
// vectors serve search) in front of a scripted upstream in its own process, both on loopback.
// The agent holds 10k transcript rows of chat text (LoCoMo turns when the file is there) plus a
// few typed facts distilled from ordinary statements. Printed, each with its target:
//   (a) Cairn's CPU time (all threads, /proc/<pid>/stat) per memory-injected request, one client;
//   (b) requests/s, p50/p99 and CPU per request with 50 concurrent clients for a fixed time, and
//       how busy Cairn's main (HTTP) thread was beside how much of the machine stayed idle (a
//       saturated main thread with CPU to spare is the main thread's limit, not the machine's);
//   (c) the same for pass-through (no agent header) and for a message the gate answers `none`;
//   (d) start-up to /health with the word vectors loaded, RSS idle after start, just after the
//       load, and idle: a minute after the distiller has no conversation pending;
//   (e) added latency (proxied − direct, interleaved) with memory injected at 100k rows.
// Only questions that got a block in a first pass are sent (x-cairn-memory: injected); the
// share that still got one under load is printed. The turns each request records (question and
// answer) grow the memory while it runs, as they do in use.
//
//   npm run bench -- memory-throughput
//   BENCH_THROUGHPUT_SECONDS=10 (each load case), BENCH_CASES=cpu,load,compare,load-distil,100k (a subset; all
//   by default), BENCH_CAIRN_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (profile the server),
//   BENCH_SLOWEST=N (the 100k case's N slowest requests, each with the monotonic clock in µs when it
//   was sent: a --cpu-prof profile's timestamps are on the same clock on Linux, so it shows what
//   the server was doing meanwhile)
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import type { HealthResponse, StatsResponse } from '../src/shared/api.ts';
import { DIGEST_WORKER_IDLE_MS } from '../src/main/engine/memory/digest-thread.ts';
import { RELEASE_AFTER_MS } from '../src/main/engine/memory-release.ts';
import { formatSteal, idleMeter, stealMeter } from './cpu-steal.ts';
import { defaultLocomoPath, locomoTurnsAndQuestions } from './locomo.ts';
import { processCpuMs, threadCpuDelta, threadCpuMs, threadsCpuMs } from './process-cpu.ts';
import { startUpstreamProcess } from './proxy.ts';
import { offlineEnv, type Served, startServe } from './serve.ts';
import { pollUntil, waitForEmbedders } from './wait.ts';

type Print = (line: string) => void;

const AGENT = 'bench-memory';
const TARGET_CPU_MS = 3;
const TARGET_RPS = 300;
const TARGET_STARTUP_MS = 2_000;
const TARGET_RSS_MB = 300;
const TARGET_ADDED_P99_MS = 10;
const CONCURRENCY = 50;

// ---------- the server under test ----------

/** Cairn as it runs by default: no Core Model, the default embedder with no network. */
function startDefaultServe(upstreamUrl: string): Promise<Served> {
  return startServe(upstreamUrl, {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    CAIRN_CORE_MODEL: 'off',
    ...offlineEnv(),
  });
}

/** Resident set size of a process in MB (VmRSS), or null without /proc. */
function rssMb(pid: number | undefined): number | null {
  return statusMb(pid, 'VmRSS');
}

function statusMb(pid: number | undefined, field: string): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`, 'u').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** " (anonymous 412 MB, files 60 MB)": heap and malloc against mapped files (code, assets). */
function rssParts(pid: number | undefined): string {
  const anon = statusMb(pid, 'RssAnon');
  const file = statusMb(pid, 'RssFile');
  return anon === null || file === null ? '' : ` (anonymous ${f1(anon)} MB, files ${f1(file)} MB)`;
}

// ---------- HTTP ----------

/** One pool of kept-alive sockets for the load: as many as there are clients. */
const pool = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Answer {
  ms: number;
  status: number;
  header: string | null;
  text: string;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolvePost, reject) => {
    const started = performance.now();
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: pool,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const h = res.headers['x-cairn-memory'];
          resolvePost({
            ms: performance.now() - started,
            status: res.statusCode ?? 0,
            header: typeof h === 'string' ? h : null,
            text,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function api<T>(h: Served, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(h.url + path, {
    method,
    headers: {
      authorization: `Bearer ${h.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A chat request as a client sends it; `agent` null: pass-through (no agent header). */
function chat(
  h: Served,
  message: string,
  agent: string | null,
  conversation: string,
): Promise<Answer> {
  const body = JSON.stringify({
    model: 'scripted-model',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: message },
    ],
  });
  return post(`${h.url}/v1/chat/completions`, body, {
    'content-type': 'application/json',
    authorization: `Bearer ${h.token}`,
    ...(agent === null
      ? {}
      : { 'x-osaurus-agent-id': agent, 'x-osaurus-conversation-id': conversation }),
  });
}

const injected = (a: Answer) => a.header?.startsWith('injected') === true;

// ---------- what the agent remembers ----------

interface Corpus {
  turns: string[];
  questions: string[];
}

/** LoCoMo turns ("Name: text") and questions when the file is there, else plain chat lines. */
function loadCorpus(): Corpus {
  const path = defaultLocomoPath();
  if (!existsSync(path)) {
    const topics = ['garden', 'invoice', 'trip to Lisbon', 'python course', 'recipe', 'guitar'];
    return {
      turns: Array.from(
        { length: 2_000 },
        (_, i) =>
          `I spent ${i % 9} hours on the ${topics[i % topics.length]} and then the ${topics[(i >> 3) % topics.length]} this week`,
      ),
      questions: topics.map((t) => `What did I say about the ${t}?`),
    };
  }
  return locomoTurnsAndQuestions(path);
}

/** Ordinary statements the heuristic stage distils into typed facts, and questions about them. */
const STATEMENTS = [
  'My sister Ines lives in Lisbon and works as an architect.',
  'I work as a nurse at the city hospital, mostly night shifts.',
  'Our dog is called Biscuit, he is a beagle.',
  "I'm allergic to peanuts, so I always check labels.",
  'We moved to Porto last spring.',
  'My favourite food is ramen.',
  'I play tennis every Saturday morning with my friend Tom.',
  'My manager is Priya, she is great.',
];
const PERSONAL_QUESTIONS = [
  'Where does my sister live?',
  "What's my dog's name?",
  'What do I do for work?',
  'Am I allergic to anything?',
  'Which city am I based in?',
  'What is my favourite food?',
  'Who do I play tennis with?',
  'Who is my boss?',
  'What sport do I play on weekends?',
  'Do we have a pet?',
];

/** `rows` transcript rows (user + assistant turns) through POST /memory/ingest, no extraction. */
async function seed(h: Served, corpus: Corpus, from: number, rows: number): Promise<void> {
  const turnsPerConversation = 25;
  const start = Date.parse('2023-01-01T10:00:00Z');
  for (let done = from; done < rows; done += turnsPerConversation * 2) {
    const c = done / (turnsPerConversation * 2);
    const pick = (i: number) => corpus.turns[(i * 7919) % corpus.turns.length]!;
    await api(h, 'POST', '/memory/ingest', {
      agent_id: AGENT,
      conversation_id: `seed-${c}`,
      skip_extraction: true,
      session_date: new Date(start + c * 3_600_000).toISOString(),
      turns: Array.from({ length: turnsPerConversation }, (_, i) => ({
        user: pick(done + 2 * i),
        assistant: pick(done + 2 * i + 1),
      })),
    });
  }
}

/** Waits until every transcript row is recorded and has its vector (indexing runs behind). */
function settled(h: Served, transcriptRows: number): Promise<void> {
  return pollUntil(async () => {
    const s = await api<StatsResponse>(h, 'GET', '/memory/stats');
    if (s.transcript < transcriptRows) return `${s.transcript}/${transcriptRows} rows recorded`;
    return s.vectors >= s.transcript + s.pinned + s.episodes
      ? null
      : `${s.vectors} vectors for ${s.transcript + s.pinned + s.episodes} rows`;
  }, 300_000);
}

/**
 * Waits until the distiller has finished the conversations it already took on: with
 * extraction switched to manual it starts no more, but those queued before still run (the
 * warm-up's conversations), and would be counted as the memory path's CPU. Done when the
 * count of pending signals has held still for a second (one conversation takes ~50 ms).
 */
async function distillerQuiet(h: Served): Promise<void> {
  let last = -1;
  let since = performance.now();
  await pollUntil(async () => {
    const { pending } = await api<StatsResponse>(h, 'GET', '/memory/stats');
    if (pending !== last) {
      last = pending;
      since = performance.now();
    }
    return performance.now() - since >= 1_000 ? null : `${pending} signals pending, still changing`;
  }, 300_000);
}

/** Waits until no conversation waits for the distiller; false after `timeoutMs`. */
async function distillerDone(h: Served, timeoutMs: number): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const { pending } = await api<StatsResponse>(h, 'GET', '/memory/stats');
    if (pending === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return false;
}

async function transcriptRows(h: Served): Promise<number> {
  return (await api<StatsResponse>(h, 'GET', '/memory/stats')).transcript;
}

// ---------- measurements ----------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

interface Load {
  /** The message of the n-th request of client `c`. */
  message(c: number, n: number): string;
  agent: string | null;
}

/**
 * Each client walks the questions from its own offset, in its own conversation; a client that
 * has asked all of them starts a new conversation (the same message again in the same one
 * would be a resend, which re-uses its block without a lookup).
 */
function questionLoad(questions: string[], agent: string | null): Load {
  return { agent, message: (c, n) => questions[(c * 7 + n) % questions.length]! };
}

function conversationOf(c: number, n: number, questions: number, tag: string): string {
  return `${tag}-client-${c}-round-${Math.floor(n / questions)}`;
}

interface Sequential {
  cpuMsPerRequest: number | null;
  /** CPU ms per request by thread name ("main": the HTTP thread), largest first. */
  byThread: [string, number][];
  injected: number;
  sent: number;
}

/** One client, one request at a time; CPU counted until the turns are recorded and indexed. */
async function sequentialCpu(
  h: Served,
  questions: string[],
  requests: number,
  tag: string,
): Promise<Sequential> {
  const before = await transcriptRows(h);
  const cpu0 = processCpuMs(h.child.pid);
  const threads0 = threadsCpuMs(h.child.pid);
  let got = 0;
  for (let n = 0; n < requests; n++) {
    const a = await chat(
      h,
      questions[n % questions.length]!,
      AGENT,
      conversationOf(0, n, questions.length, tag),
    );
    if (a.status !== 200) throw new Error(`HTTP ${a.status}: ${a.text}`);
    if (injected(a)) got++;
  }
  await settled(h, before + 2 * requests);
  const cpu1 = processCpuMs(h.child.pid);
  return {
    cpuMsPerRequest: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / requests,
    byThread: threadCpuDelta(threads0, threadsCpuMs(h.child.pid), h.child.pid).map(
      ([name, ms]) => [name, ms / requests] as [string, number],
    ),
    injected: got,
    sent: requests,
  };
}

interface Throughput {
  /** x-cairn-memory of the requests that got no block, counted. */
  notInjected: Map<string, number>;
  /** Requests that did not get a 200 (at most 1%, else the case fails). */
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  sent: number;
  injected: number;
  cpuMsPerRequest: number | null;
  steal: number | null;
  /** Share of the window Cairn's main (HTTP) thread was on a CPU. */
  mainBusy: number | null;
  /** Share of the machine's CPU time nobody used meanwhile. */
  idle: number | null;
}

/** `CONCURRENCY` clients for `seconds`; CPU counted over the window (recording may trail it). */
async function throughput(
  h: Served,
  load: Load,
  questions: number,
  seconds: number,
  tag: string,
): Promise<Throughput> {
  const latencies: number[] = [];
  const errors: string[] = [];
  const notInjected = new Map<string, number>();
  let got = 0;
  const steal = stealMeter();
  const idle = idleMeter();
  const cpu0 = processCpuMs(h.child.pid);
  const main0 = threadCpuMs(h.child.pid, h.child.pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const client = async (c: number) => {
    for (let n = 0; performance.now() < deadline; n++) {
      const a = await chat(h, load.message(c, n), load.agent, conversationOf(c, n, questions, tag));
      if (a.status !== 200) {
        // Counted, not fatal: a kept-alive upstream socket closed under the load is a 502.
        errors.push(`${a.status}: ${a.text.slice(0, 200)}`);
        continue;
      }
      latencies.push(a.ms);
      if (injected(a)) got++;
      else if (load.agent !== null) {
        const why = (a.header ?? '(no header)').replace(/;\s*tokens=\d+/u, '');
        notInjected.set(why, (notInjected.get(why) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, c) => client(c)));
  const elapsed = (performance.now() - started) / 1000;
  const cpu1 = processCpuMs(h.child.pid);
  const main1 = threadCpuMs(h.child.pid, h.child.pid);
  latencies.sort((a, b) => a - b);
  if (errors.length > latencies.length / 100) {
    throw new Error(`${errors.length} requests failed, e.g. ${errors[0]}`);
  }
  return {
    notInjected,
    errors: errors.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    sent: latencies.length,
    injected: got,
    cpuMsPerRequest:
      cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / Math.max(1, latencies.length),
    steal: steal(),
    mainBusy: main0 === null || main1 === null ? null : (main1 - main0) / (elapsed * 1000),
    idle: idle(),
  };
}

function printThroughput(print: Print, label: string, t: Throughput, target: string): void {
  const cpu = t.cpuMsPerRequest === null ? '' : `, Cairn CPU ${f2(t.cpuMsPerRequest)} ms/request`;
  // Which resource ran out: Cairn's HTTP thread (one CPU at most) or the machine.
  const share = (x: number) => `${Math.round(x * 100)}%`;
  const busy =
    t.mainBusy === null || t.idle === null
      ? ''
      : `, main thread busy ${share(t.mainBusy)} with the machine ${share(t.idle)} idle`;
  print(
    `  ${label.padEnd(44)} ${f1(t.rps).padStart(6)} requests/s (${target}), p50 ${f1(t.p50)} ms p99 ${f1(t.p99)} ms, ` +
      `${t.sent} requests${t.errors > 0 ? ` (+${t.errors} failed)` : ''}, memory injected in ${t.injected}${cpu}${busy}${formatSteal(t.steal)}` +
      (t.notInjected.size > 0 && t.injected > 0
        ? `; no block: ${[...t.notInjected].map(([k, n]) => `${k} ×${n}`).join(', ')}`
        : ''),
  );
}

/** Proxied minus direct (interleaved, one at a time) with memory injected. */
async function addedLatency(
  h: Served,
  upstreamUrl: string,
  questions: string[],
  rounds: number,
  print: Print,
): Promise<{ p50: number; p99: number; injected: number; steal: number | null }> {
  const direct: number[] = [];
  const proxied: number[] = [];
  const starts: number[] = [];
  let got = 0;
  const steal = stealMeter();
  for (let n = 0; n < rounds; n++) {
    const q = questions[n % questions.length]!;
    const d = await post(
      `${upstreamUrl}/chat/completions`,
      JSON.stringify({ model: 'scripted-model', messages: [{ role: 'user', content: q }] }),
      { 'content-type': 'application/json' },
    );
    starts.push(Number(process.hrtime.bigint() / 1000n));
    const p = await chat(h, q, AGENT, conversationOf(0, n, questions.length, 'latency'));
    if (p.status !== 200 || d.status !== 200) throw new Error(`HTTP ${p.status}/${d.status}`);
    if (injected(p)) got++;
    direct.push(d.ms);
    proxied.push(p.ms);
  }
  // BENCH_SLOWEST=N: the N slowest proxied requests, to tell a slow question from a pause.
  const slowest = Number(process.env.BENCH_SLOWEST ?? 0);
  if (slowest > 0) {
    const worst = proxied
      .map((ms, n) => ({ ms, n }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, slowest);
    for (const w of worst)
      print(
        `    request ${w.n}: ${f1(w.ms)} ms, at ${starts[w.n]}, ${questions[w.n % questions.length]}`,
      );
  }
  direct.sort((a, b) => a - b);
  proxied.sort((a, b) => a - b);
  return {
    p50: percentile(proxied, 50) - percentile(direct, 50),
    p99: percentile(proxied, 99) - percentile(direct, 99),
    injected: got,
    steal: steal(),
  };
}

/** (c): pass-through and a message the gate answers `none`, for comparison. */
async function comparisons(
  h: Served,
  questions: string[],
  seconds: number,
  print: Print,
): Promise<void> {
  const pass = await throughput(
    h,
    questionLoad(questions, null),
    questions.length,
    seconds,
    'pass',
  );
  printThroughput(
    print,
    `(c) ${CONCURRENCY} clients, pass-through (no agent header):`,
    pass,
    'for comparison',
  );
  const none = await throughput(
    h,
    // Another agent: its turns would otherwise push the labelled chat out of the newest 1,000
    // rows the gate learns speakers' names from (memory-reader.ts), and named questions would
    // stop getting a block in the cases that follow.
    { agent: `${AGENT}-small-talk`, message: (c, n) => `hi, how are you today? (${c}.${n})` },
    1_000_000,
    seconds,
    'none',
  );
  printThroughput(
    print,
    `(c) ${CONCURRENCY} clients, agent header, gate says none:`,
    none,
    'for comparison',
  );
}

// ---------- the run ----------

export async function runMemoryThroughputBench(print: Print): Promise<void> {
  const seconds = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 10);
  const cases = new Set(
    (process.env.BENCH_CASES ?? 'cpu,load,compare,load-distil,100k')
      .split(',')
      .map((c) => c.trim()),
  );
  const corpus = loadCorpus();
  print(
    `  load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )}; text from ${existsSync(defaultLocomoPath()) ? 'LoCoMo turns' : 'a synthetic list'}`,
  );
  const upstream = await startUpstreamProcess();
  const h = await startDefaultServe(upstream.url);
  try {
    // (d) start-up: /health ok with the word vectors loaded.
    await pollUntil(async () => {
      const health = await api<HealthResponse>(h, 'GET', '/health');
      return health.status === 'ok' && health.embedder.wordVectors?.status === 'ready'
        ? null
        : `word vectors ${health.embedder.wordVectors?.status ?? 'absent'}`;
    }, 60_000);
    const wordVectorsMs = performance.now() - h.spawnedAt;
    await waitForEmbedders(() => api<HealthResponse>(h, 'GET', '/health'));
    const health = await api<HealthResponse>(h, 'GET', '/health');
    const rssStart = rssMb(h.child.pid);
    print(
      `  start-up: listening after ${Math.round(h.listeningMs)} ms, /health ok with the word vectors loaded after ${Math.round(wordVectorsMs)} ms ` +
        `(target ≤ ${TARGET_STARTUP_MS} ms: ${verdict(wordVectorsMs <= TARGET_STARTUP_MS)}); serving search: ${health.embedder.active ?? '?'}; ` +
        `RSS idle after start ${rssStart === null ? '?' : f1(rssStart)} MB${rssParts(h.child.pid)} (target ≤ ${TARGET_RSS_MB} MB)`,
    );

    // The memory: typed facts from ordinary statements, then 10k rows of chat.
    for (const [i, statement] of STATEMENTS.entries()) {
      await api(h, 'POST', '/memory/ingest', {
        agent_id: AGENT,
        conversation_id: `facts-${i}`,
        turns: [{ user: statement, assistant: 'Thanks, noted.' }],
      });
    }
    const seedStart = performance.now();
    const base = await transcriptRows(h);
    await seed(h, corpus, 0, 10_000);
    await settled(h, base + 10_000);
    const stats = await api<StatsResponse>(h, 'GET', '/memory/stats');
    print(
      `  memory: ${stats.transcript} transcript rows, ${stats.pinned} facts, ${stats.vectors} vectors (seeded and indexed in ${f1((performance.now() - seedStart) / 1000)} s)`,
    );

    // The questions that get a block (the first pass also warms the path up).
    const candidates = [...PERSONAL_QUESTIONS, ...corpus.questions.slice(0, 300)];
    const questions: string[] = [];
    const sections = new Map<string, number>();
    for (const [i, q] of candidates.entries()) {
      const a = await chat(h, q, AGENT, `select-${i}`);
      if (!injected(a)) continue;
      questions.push(q);
      const section = /section=(\w+)/u.exec(a.header ?? '')?.[1] ?? '?';
      sections.set(section, (sections.get(section) ?? 0) + 1);
    }
    if (questions.length === 0) throw new Error('no question got a memory block');
    print(
      `  ${questions.length}/${candidates.length} questions got a block (${[...sections].map(([s, n]) => `${s} ${n}`).join(', ')}); only those are sent below`,
    );

    // Warm-up: the JIT compiles the read path over the first requests.
    await sequentialCpu(h, questions, 600, 'warm');
    await throughput(h, questionLoad(questions, AGENT), questions.length, 3, 'warm');
    // The memory path alone: the distiller waits (extractionMode manual) while these run.
    // With it on, a turn of one conversation "finishes" the agent's previous one (DESIGN §6),
    // so 50 clients chatting with one agent at once have the distiller re-read a conversation
    // on nearly every request: measured apart, as `load-distil`.
    await setExtraction(h, 'manual');
    await distillerQuiet(h);
    if (cases.has('cpu')) await cpuCase(h, questions, print);
    if (cases.has('load')) await loadCase(h, questions, seconds, print, 'load');
    if (cases.has('compare')) await comparisons(h, questions, seconds, print);
    await setExtraction(h, 'sessionEnd');
    if (cases.has('load-distil')) await loadCase(h, questions, seconds, print, 'distil');
    await settled(h, await transcriptRows(h));
    const rssAfter = rssMb(h.child.pid);
    print(
      `  (d) RSS just after the load: ${rssAfter === null ? '?' : f1(rssAfter)} MB${rssParts(h.child.pid)} (for comparison)`,
    );
    // Idle: the distiller done with every conversation the load left it (each waits for its
    // debounce first), then every thread quiet for longer than the delays after which each gives
    // memory back (the digest worker stops).
    const distilStart = performance.now();
    const distilled = await distillerDone(h, 600_000);
    const distilS = (performance.now() - distilStart) / 1000;
    // A minute: the digest worker's last job may end as the count reaches 0, and V8 hands a
    // collected heap's pages back over a few seconds.
    const idleWait = Math.max(60_000, RELEASE_AFTER_MS + DIGEST_WORKER_IDLE_MS + 10_000);
    await new Promise((resolve) => setTimeout(resolve, idleWait));
    const rssIdle = rssMb(h.child.pid);
    print(
      `  (d) RSS idle, ${f1(idleWait / 1000)} s after the distiller was done (${distilled ? `it took ${f1(distilS)} s` : `NOT done after ${f1(distilS)} s`}): ${rssIdle === null ? '?' : f1(rssIdle)} MB${rssParts(h.child.pid)} (target ≤ ${TARGET_RSS_MB} MB: ${rssIdle === null ? '?' : verdict(rssIdle <= TARGET_RSS_MB)})`,
    );
    if (cases.has('100k')) await latency100k(h, corpus, questions, upstream.url, print);
  } finally {
    pool.destroy();
    await h.stop();
    await upstream.stop();
  }
}

/** (a) CPU per memory-injected request, one client. */
async function cpuCase(h: Served, questions: string[], print: Print): Promise<void> {
  const rows10k = await transcriptRows(h);
  const seq = await sequentialCpu(h, questions, 500, 'cpu');
  const stats = await api<StatsResponse>(h, 'GET', '/memory/stats');
  print(
    `  (a) one client, ~${Math.round(rows10k / 1000)}k rows (${stats.pinned} facts, ${stats.episodes} episodes): Cairn CPU ${seq.cpuMsPerRequest === null ? '?' : f2(seq.cpuMsPerRequest)} ms per memory request ` +
      `(all threads, recording and indexing included; target ≤ ${TARGET_CPU_MS} ms: ${seq.cpuMsPerRequest === null ? '?' : verdict(seq.cpuMsPerRequest <= TARGET_CPU_MS)}); ` +
      `memory injected in ${seq.injected}/${seq.sent}; ${byThread(seq)}`,
  );
}

const byThread = (seq: Sequential): string =>
  `by thread: ${seq.byThread
    .filter(([, ms]) => ms >= 0.05)
    .map(([name, ms]) => `${name} ${f2(ms)}`)
    .join(', ')}`;

async function setExtraction(h: Served, mode: 'manual' | 'sessionEnd'): Promise<void> {
  await api(h, 'PUT', '/settings', { extractionMode: mode });
}

/** (b) 50 concurrent clients with memory (`distil`: with the distiller at work). */
async function loadCase(
  h: Served,
  questions: string[],
  seconds: number,
  print: Print,
  tag: 'load' | 'distil',
): Promise<void> {
  const mem = await throughput(h, questionLoad(questions, AGENT), questions.length, seconds, tag);
  printThroughput(
    print,
    tag === 'load'
      ? `(b) ${CONCURRENCY} clients, memory injected, ${seconds} s:`
      : `(b) the same with the distiller on (default):`,
    mem,
    `target ≥ ${TARGET_RPS}: ${verdict(mem.rps >= TARGET_RPS)}`,
  );
  await settled(h, await transcriptRows(h));
}

/** (e) added latency (and CPU) with memory injected at 100k rows. */
async function latency100k(
  h: Served,
  corpus: Corpus,
  questions: string[],
  upstreamUrl: string,
  print: Print,
): Promise<void> {
  const have = await transcriptRows(h);
  const seed100k = performance.now();
  const more = Math.max(0, 100_000 - have);
  await seed(h, corpus, 10_000, 10_000 + more);
  await settled(h, have + more);
  print(
    `  seeded to ${await transcriptRows(h)} rows in ${f1((performance.now() - seed100k) / 1000)} s`,
  );
  await sequentialCpu(h, questions, 300, 'warm100k');
  const seq100k = await sequentialCpu(h, questions, 300, 'cpu100k');
  const lat = await addedLatency(h, upstreamUrl, questions, 1_000, print);
  print(
    `  (e) ~100k rows, one client: Cairn CPU ${seq100k.cpuMsPerRequest === null ? '?' : f2(seq100k.cpuMsPerRequest)} ms per memory request (${byThread(seq100k)}); ` +
      `added latency p50 ${f2(lat.p50)} ms p99 ${f2(lat.p99)} ms (target p99 ≤ ${TARGET_ADDED_P99_MS} ms: ${verdict(lat.p99 <= TARGET_ADDED_P99_MS)}), ` +
      `memory injected in ${lat.injected}/1000${formatSteal(lat.steal)}`,
  );
  const rss100k = rssMb(h.child.pid);
  print(`  RSS at 100k rows after the load: ${rss100k === null ? '?' : f1(rss100k)} MB`);
}

if (import.meta.main) {
  await runMemoryThroughputBench((l) => console.log(l));
}
