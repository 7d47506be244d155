// The heuristic distiller (DESIGN §6): no LLM. Turns a conversation into the same Digest the
// Core Model returns, so memory works with zero configuration and when the Core Model is down.
//
// Facts come from the extraction stage (extraction/extract.ts: wink-nlp analysis and named
// rules), only from what a person states: user messages, or any message whose writer is
// named by a speaker label ("Dana: I moved to Lisbon") — then the facts are about that
// speaker. Assistant messages without a label are an AI talking about itself and never
// yield facts. The episode summary is extractive: the conversation's most telling sentences.
import type { Digest, PinnedCandidate } from '../../../shared/digest.ts';
import { factsOfSentences } from './extraction/extract.ts';
import type { TypedFact } from './extraction/fact.ts';
import { analyse, type AnalysedSentence } from './extraction/nlp.ts';
import type { WordVectors } from '../vector/word-vectors.ts';

export interface HeuristicMessage {
  role: string;
  content: string;
  created_at: number;
  /** Transcript row id: the provenance of the facts read from this message. */
  id?: number;
}

// ---------- text utilities ----------

const SPEAKER_LABEL = /^([\p{Lu}][\p{L}'’-]{1,30}(?: [\p{Lu}][\p{L}'’-]{1,30})?):\s+/u;
/** Labels that name a role or a kind of text, not a person (wink tags any capitalised word at
 * the start of a message as a proper noun, so these are told apart by name). */
const NOT_PEOPLE = new Set(
  (
    'user human me assistant system tool ai bot model note notes update edit question answer q a ' +
    'ps tldr summary warning error example step todo tip reminder fyi context problem solution ' +
    'result output input source title subject re important update info'
  ).split(' '),
);

/**
 * Splits a leading speaker label ("Dana: ...") off a message. A label is a person's name:
 * words wink-nlp tags as proper nouns ("Note:", "Update:" are not), or "User"/"Me".
 */
export function splitSpeaker(text: string): { speaker: string | null; body: string } {
  const m = SPEAKER_LABEL.exec(text);
  if (!m) return { speaker: null, body: text };
  const name = m[1]!;
  const body = text.slice(m[0].length);
  const lower = name.toLowerCase();
  if (lower === 'user' || lower === 'human' || lower === 'me') return { speaker: 'User', body };
  if (NOT_PEOPLE.has(lower)) return { speaker: null, body: text };
  const toks = analyse(`${name}: hello`)[0]?.toks ?? [];
  const isName = toks.length > 2 && toks.slice(0, -2).every((t) => t.pos === 'PROPN');
  return isName ? { speaker: name, body } : { speaker: null, body: text };
}

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being ' +
    'below between both but by can cannot could did do does doing down during each few for from further ' +
    'had has have having he her here hers herself him himself his how i if in into is it its itself just ' +
    'me more most my myself no nor not now of off on once only or other our ours ourselves out over own ' +
    'really same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom ' +
    'why will with would you your yours yourself yourselves yeah yes ok okay oh wow hey hi hello thanks ' +
    'thank sure well like just got get gets getting going go goes gonna wanna lot lots much many thing ' +
    'things something anything everything nothing stuff kind sort pretty great good nice cool awesome ' +
    'amazing totally definitely maybe also even still always never one two make made know think feel ' +
    'felt want wanted said say says tell told let lets look looks looking see seen saw take took come came ' +
    'day days time times way ways today yesterday tomorrow week weeks year years im ive ill id dont ' +
    "didnt doesnt cant wont isnt arent thats whats youre youve theyre its it's i'm i've i'll i'd don't " +
    "can't won't that's what's you're you've awesome glad happy sounds sound love loved done keep " +
    'first taking making doing having being thinking feeling gotta kinda lately special'
  ).split(/\s+/),
);

const NOT_ENTITIES = new Set(
  (
    'I The A An This That These Those It Its He She They We You My Your Our Their His Her Hey Hi Hello ' +
    'Thanks Thank Wow Yeah Yes No Oh Ok Okay Sure Well So And But Or If When Where What Why How Who ' +
    'Which Just Also Really Totally Definitely Maybe Great Good Nice Cool Awesome Amazing Sorry Please ' +
    'Let Lets Glad Hope Love Sounds Sound There Here Then Now Today Yesterday Tomorrow Monday Tuesday ' +
    'Wednesday Thursday Friday Saturday Sunday January February March April May June July August ' +
    'September October November December Mom Dad Haha Lol Btw Anyway Absolutely Exactly Right True ' +
    'Congrats Congratulations Bye Cheers Dear Mr Mrs Ms Dr User Assistant AI Mondays Tuesdays ' +
    'Wednesdays Thursdays Fridays Saturdays Sundays Weekends OMG Aww Ah Uh Um Hmm'
  ).split(/\s+/),
);

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

function stem(w: string): string {
  const x = w.replace(/['’]s$/, '');
  if (x.length > 4 && x.endsWith('ies')) return x.slice(0, -3) + 'y';
  if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss') && !x.endsWith('us'))
    return x.slice(0, -1);
  return x;
}

// ---------- episode ----------

interface ScoredSentence {
  text: string;
  speaker: string;
  mayState: boolean;
  order: number;
  score: number;
  /** How many facts the sentence states. */
  facts: number;
}

const GREETING =
  /^(?:hi|hey|hello|thanks|thank you|bye|good (?:morning|night|evening)|ok|okay|sure|yes|no|yeah|wow|lol|haha|cool|great|nice|awesome|talk (?:to you )?(?:soon|later)|see you)\b[\s!.,]*$/i;

function formatDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function topKeywords(texts: string[], k: number, exclude: Set<string>): string[] {
  const freq = new Map<string, { n: number; form: string }>();
  for (const t of texts) {
    for (const w of words(t)) {
      if (w.length < 4 || STOPWORDS.has(w) || exclude.has(w) || /^\d+$/.test(w)) continue;
      const key = stem(w.replace(/['’]/g, ''));
      if (STOPWORDS.has(key)) continue;
      const e = freq.get(key);
      if (e) e.n++;
      else freq.set(key, { n: 1, form: key });
    }
  }
  return [...freq.values()]
    .filter((e) => e.n >= 2 || freq.size < 15)
    .sort((a, b) => b.n - a.n || a.form.localeCompare(b.form))
    .slice(0, k)
    .map((e) => e.form);
}

/** "[Agent]", "[scheme name]", "{{first_name}}", "<address>": a slot of a template. */
const TEMPLATE_SLOT = /\[[^\]\n]{1,60}\]|\{\{?[^}\n]{1,60}\}?\}|<[^>\n]{1,60}>/gu;

/** Capitalised names (consecutive capitalised words joined), not sentence-initial stopwords. */
export function extractEntities(text: string[], k = 12): string[] {
  // Template slots ("Dear [Agent]", "{{name}}", "<address>") name nobody; after a colon
  // ("Subject: Return of …") a new sentence starts, so its first word is read as one.
  const sentences = text.flatMap((s) => s.replace(TEMPLATE_SLOT, ' ').split(/:\s+/u));
  const counts = new Map<string, number>();
  // A capitalised first word is only a name if it is also capitalised mid-sentence somewhere.
  const midCaps = new Set<string>();
  for (const s of sentences) {
    const toks = s.match(/[\p{L}\p{N}][\p{L}\p{N}'’&.-]*/gu) ?? [];
    toks.slice(1).forEach((t) => {
      if (/^\p{Lu}/u.test(t)) midCaps.add(t.replace(/['’]s$/, '').replace(/[.]$/, ''));
    });
  }
  for (const s of sentences) {
    const tokens = s.match(/[\p{L}\p{N}][\p{L}\p{N}'’&.-]*/gu) ?? [];
    let run: string[] = [];
    const flush = () => {
      if (run.length) {
        const name = run
          .join(' ')
          .replace(/['’]s$/, '')
          .replace(/\.$/, '');
        if (name.length > 1) counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      run = [];
    };
    tokens.forEach((tok, i) => {
      const clean = tok.replace(/['’]s$/, '').replace(/[.]$/, '');
      const isCap =
        /^\p{Lu}/u.test(clean) && clean !== clean.toUpperCase()
          ? true
          : /^\p{Lu}{2,6}$/u.test(clean);
      if (
        isCap &&
        !NOT_ENTITIES.has(clean) &&
        !/['’]/.test(clean) &&
        !STOPWORDS.has(clean.toLowerCase()) &&
        (i > 0 || run.length > 0 || midCaps.has(clean))
      )
        run.push(clean);
      else flush();
    });
    flush();
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, k)
    .map(([name]) => name);
}

export interface HeuristicOptions {
  /** When the conversation happened (ms); defaults to the first message's time. */
  conversationAt?: number;
  maxSummarySentences?: number;
  /** Word meaning, once loaded: facts no specific rule reads are typed by it (else skipped). */
  words?: WordVectors | null;
}

/** The digest's pinned candidate for a fact read from a message. */
export function candidateOf(f: TypedFact, m: HeuristicMessage): PinnedCandidate {
  return {
    content: f.text,
    salience: f.salience,
    tags: [f.relation ?? 'fact'],
    subject: f.subject,
    ...(f.relation ? { relation: f.relation } : {}),
    object: f.object,
    valid_from: new Date(f.validFrom ?? m.created_at).toISOString(),
    ...(f.ended ? { ended: true } : {}),
    ...(m.id !== undefined ? { source_ids: [m.id] } : {}),
  };
}

/** A Digest from the conversation's messages, with no LLM. */
export function heuristicDigest(
  messages: HeuristicMessage[],
  options: HeuristicOptions = {},
): Digest {
  const steps = digestSteps(messages, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * heuristicDigest, handing the event loop back (`pause`) whenever it has worked `sliceMs`: the
 * longest conversation distilled (2,000 rows) takes about 170 ms to read, which in one piece
 * would hold up every request that arrives meanwhile. A typical one (300 turns, 25 ms) is read
 * in one piece: cut into many short pauses it would hold up several requests instead of one
 * (BENCH_CASES=100k memory-throughput: p99 added latency 11.5 ms with 4 ms slices).
 */
export async function heuristicDigestInSlices(
  messages: HeuristicMessage[],
  options: HeuristicOptions,
  pause: () => Promise<void>,
  sliceMs = 50,
): Promise<Digest> {
  const steps = digestSteps(messages, options);
  let started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started >= sliceMs) {
      await pause();
      started = performance.now();
    }
  }
}

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

/** A text's sentences (Unicode sentence boundaries, ICU's, through Intl.Segmenter). */
function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of SENTENCES.segment(text)) if (segment.trim() !== '') out.push(segment);
  return out;
}

/** The digest's work, one message a step. */
function* digestSteps(
  messages: HeuristicMessage[],
  options: HeuristicOptions,
): Generator<void, Digest> {
  const sentences: ScoredSentence[] = [];
  const facts: { fact: TypedFact; message: HeuristicMessage }[] = [];
  let order = 0;
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const { speaker: label, body } = splitSpeaker(m.content);
    const speaker = label ?? (m.role === 'user' ? 'User' : 'Assistant');
    const mayState = label !== null || m.role === 'user';
    // Only a message that may state facts is tagged (wink-nlp); an assistant's reply, often the
    // longest text of a conversation, is only cut into sentences for the summary.
    const analysed: AnalysedSentence[] | null = mayState ? analyse(stripCode(body)) : null;
    const texts = analysed ? analysed.map((a) => a.text) : sentencesOf(stripCode(body));
    const perSentence = analysed
      ? factsOfSentences(analysed, {
          at: m.created_at,
          speaker: label === 'User' ? null : label,
          words: options.words ?? null,
        })
      : texts.map(() => []);
    texts.forEach((sentence, k) => {
      const text = sentence.trim();
      if (text.length < 2) return;
      const stated = perSentence[k] ?? [];
      sentences.push({ text, speaker, mayState, order: order++, score: 0, facts: stated.length });
      for (const fact of stated) facts.push({ fact, message: m });
    });
    yield;
  }

  const allText = sentences.map((s) => s.text);
  const speakers = new Set(sentences.map((x) => x.speaker.toLowerCase()));
  const keywords = topKeywords(allText, 8, speakers);
  const entities = extractEntities(allText);
  const kw = new Set(keywords);
  const ent = entities.map((e) => e.toLowerCase());
  for (const s of sentences) {
    const ws = words(s.text);
    if (ws.length < 4 || GREETING.test(s.text)) {
      s.score = -1;
      continue;
    }
    let score = 0;
    for (const w of ws) if (kw.has(stem(w))) score += 1;
    const lower = s.text.toLowerCase();
    for (const e of ent) if (lower.includes(e)) score += 1;
    if (/\d/.test(s.text)) score += 0.5;
    if (s.facts > 0) score += 2;
    if (s.text.endsWith('?')) score -= 1.5;
    if (s.speaker === 'Assistant') score -= 0.5;
    s.score = score / Math.sqrt(Math.max(6, ws.length) / 6);
  }
  const maxSentences =
    options.maxSummarySentences ?? Math.min(6, Math.max(3, Math.ceil(sentences.length / 8)));
  const chosen = sentences
    .filter((s) => s.score >= 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, maxSentences)
    .sort((a, b) => a.order - b.order);

  const at = options.conversationAt ?? messages[0]?.created_at ?? Date.now();
  const body = chosen
    .map((s) => `${s.speaker}: ${s.text.length > 300 ? s.text.slice(0, 297) + '...' : s.text}`)
    .join(' ');
  const summary = `Conversation on ${formatDate(at)}. ${body || 'Short exchange with no substantive content.'}`;

  const candidates: PinnedCandidate[] = [];
  const identityFacts: string[] = [];
  const decisions: string[] = [];
  const actionItems: string[] = [];
  const seen = new Map<string, PinnedCandidate>();
  for (const { fact: f, message } of facts) {
    const key = `${f.subject}|${f.relation}|${f.object.toLowerCase()}|${f.ended}|${f.relation ? '' : f.text.toLowerCase()}`;
    const earlier = seen.get(key);
    if (earlier) {
      // Said again later in the conversation: one fact, every row it came from.
      if (
        message.id !== undefined &&
        earlier.source_ids &&
        !earlier.source_ids.includes(message.id)
      )
        earlier.source_ids.push(message.id);
      continue;
    }
    const c = candidateOf(f, message);
    seen.set(key, c);
    candidates.push(c);
    if (f.identity) identityFacts.push(f.text);
    if (f.decision) decisions.push(f.text);
    if (f.plan) actionItems.push(f.text);
  }
  const salience = Math.min(
    0.9,
    0.35 +
      0.05 * Math.min(6, candidates.length) +
      (decisions.length ? 0.1 : 0) +
      Math.min(0.1, sentences.length / 200),
  );
  return {
    episode: {
      summary,
      topics: keywords.slice(0, 6),
      entities: entities.slice(0, 12),
      decisions: decisions.slice(0, 20),
      action_items: actionItems.slice(0, 20),
      salience: Math.round(salience * 100) / 100,
    },
    pinned_candidates: candidates.slice(0, 50).map((c) => ({
      ...c,
      ...(c.source_ids ? { source_ids: c.source_ids.slice(0, 50) } : {}),
    })),
    identity_facts: identityFacts.slice(0, 20),
  };
}

/** Code blocks say nothing about the person: left out of facts and summary. */
function stripCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, ' ');
}
