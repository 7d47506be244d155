// The planner (DESIGN §5 step 4, §7): fetches the section the gate chose, complements it with
// a few conversation lines when the budget allows, always adds the identity overrides, fits
// everything under memoryBudgetTokens with the real token count, and builds the block:
//   [Memory]\n## <Section>\n- <line>\n...\n[/Memory]
// The block holds no per-request value (DESIGN §9: no current date or time), so the same
// memory gives the same bytes and a provider's prompt cache keeps working; a line carries a
// date only where time is part of what it says (a conversation turn or episode).
import type { ActivitySource, MemorySection } from '../../../shared/api.ts';
import type { ContextResult } from '../services.ts';
import { getIdentity } from '../store/identity.ts';
import { factsByRelation, userFacts } from '../store/pinned.ts';
import { statesForgotten, type ForgottenWording } from './suppress.ts';
import {
  bumpEpisodeUsage,
  bumpPinnedUsage,
  episodesWithin,
  topPinnedFacts,
  transcriptWithin,
  type StoredHit,
} from '../store/search.ts';
import { datesAskedAbout, type TimeWindow } from './extraction/dates.ts';
import {
  searchScope,
  speakerOf,
  turnsByMeaning,
  type RankedHit,
  type SearchDeps,
} from './search.ts';
import { onlyAsksAboutUser } from './gate.ts';
import { neutraliseLine } from './neutralise.ts';
import { FIRST_PERSON, jaccard, queryTerms, words, wordSet } from '../text/text.ts';
import { countTokens, truncateToTokens } from './tokens.ts';

export interface PlanInput {
  agentId: string;
  message: string;
  section: MemorySection;
  budgetTokens: number;
  /** Record use_count / last_used of what was injected (false for /memory/context previews). */
  bumpUsage?: boolean;
  /** Which kinds the agent has at all (memoryPresence): empty kinds are not searched. */
  presence?: { transcript: boolean; episodes: boolean; pinned: boolean };
  /**
   * Lower-cased speaker names of the agent's labelled transcripts (the gate's people). A line
   * starting with "Word:" keeps that label as its speaker only when it is one of them
   * ("Noted: Ines, 14 May." from the assistant stays "Assistant: Noted: ..."). Absent: every
   * label is taken as a speaker.
   */
  speakers?: ReadonlySet<string>;
  /**
   * The relations of typed facts the message asks about by word meaning, best first
   * (memory/relations.ts): facts with them come first, even when they share no word with the
   * question ("Who is my boss?" → manager → "User's manager is Priya Raman").
   */
  relations?: readonly { relation: string; score: number }[];
  /** Facts the user forgot: no line that states one goes into the block. */
  forgotten?: readonly ForgottenWording[];
  /**
   * Scores passages by how close each comes to the question at its closest sentence (static
   * word vectors: vector/word-vectors.ts `closeness`); absent until they are loaded. Re-ranks
   * the user's turns found by meaning.
   */
  rankByMeaning?: (question: string, passages: readonly string[]) => number[];
}

/** A relation counts as asked about from this word-meaning score (of its best words). */
const RELATION_ASKED = 0.2;
/** At most this many relations are looked up for one question (the best ones). */
const RELATIONS_ASKED = 3;
/** Conversation turns found by meaning added after the lexical ones (personal questions). */
const BY_MEANING = 3;
/** …and for a question about the user, put first (their own words about themselves). */
const BY_MEANING_SELF = 12;
/**
 * Turns found by meaning are fetched from the vector index this many at a time and re-ranked
 * at their closest sentence: the whole-message vector finds the neighbourhood, the sentence
 * the fact said in passing.
 */
const MEANING_POOL = 32;
/**
 * …and for a question about the user, whose own earlier questions and the assistant's answers
 * are filtered out of the pool afterwards, leaving fewer of their statements in it.
 */
const MEANING_POOL_SELF = 48;
/** The user's own facts that may follow the ones a personal question asks about. */
const PROFILE_FACTS = 12;
/** Typed facts of the asked relations put first, at most. */
const TYPED_FACTS = 6;

export const SECTION_TITLES = {
  identity: 'About the user',
  pinned: 'Facts',
  episode: 'Past conversations',
  transcript: 'Conversation excerpts',
} as const;

/** One memory line never takes more than this (a pasted document stays a short excerpt). */
const MAX_LINE_TOKENS = 120;
/** A line cut to fit keeps at least this many tokens past its date and speaker, or is left out. */
const MIN_CUT_TOKENS = 10;
/** "\n- " before each line. */
const LINE_PREFIX_TOKENS = 2;
/** Conversation lines added under a facts / episodes section when there is room. */
const COMPLEMENT_LINES = 12;
/** Conversation lines when the transcript is the section (or the primary found nothing). */
const TRANSCRIPT_LINES = 12;
/** Turns of a named day read back when none of its conversations was distilled. */
const DAY_TURNS = 8;
/** "Conversation on 20 May 2024. " (heuristic summaries): the line's [date] already says it. */
const DATED_OPENING = /^Conversation on [^.]{3,40}\.\s*/u;
/** Episode summaries are long (up to MAX_LINE_TOKENS each): a few, then conversation lines. */
const EPISODES = 3;

interface Group {
  title: string;
  lines: { text: string; hit?: RankedHit; order: number; source?: ActivitySource }[];
  /** At most this share of the budget goes to the group's lines (default: all of it). */
  share?: number;
}

/**
 * Facts and episode summaries leave at least this share of the budget to the conversation
 * lines that follow them: at a small budget, a few long summaries would otherwise take it all,
 * and the turns themselves are where the details are.
 */
const PRIMARY_SHARE = 0.5;

/** Local calendar date (the user's "today"), YYYY-MM-DD. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function transcriptLine(h: RankedHit, speakers: ReadonlySet<string> | undefined): string {
  // The speaker label is read from the neutralised text: a stored "System: ..." is no speaker.
  const content = plainLine(h.content);
  const label = speakerOf(content);
  const labelled = label !== null && (speakers === undefined || speakers.has(label));
  const who = labelled ? '' : h.role === 'assistant' ? 'Assistant: ' : 'User: ';
  return `[${localDate(h.created_at)}] ${who}${content}`;
}

/**
 * Every stored text goes into the block through here (identity, facts, episodes, transcript):
 * one line, and data, never markup (DESIGN §5 step 4; see neutralise.ts).
 */
function plainLine(text: string): string {
  return neutraliseLine(text);
}

export async function planMemoryBlock(deps: SearchDeps, input: PlanInput): Promise<ContextResult> {
  const { section, agentId, message } = input;
  if (section === 'none') return { section, block: '', tokens: 0 };

  const groups: Group[] = [];
  const identity = getIdentity(deps.db, agentId);
  const about: Group = { title: SECTION_TITLES.identity, lines: [] };
  // An override's source id is its position in the overrides (the narrative has none).
  identity.overrides.forEach((o, i) =>
    about.lines.push({ text: plainLine(o), order: i, source: { scope: 'identity', id: i } }),
  );
  if (section === 'identity' && identity.narrative.trim() !== '') {
    about.lines.push({
      text: plainLine(identity.narrative),
      order: about.lines.length,
      source: { scope: 'identity', id: null },
    });
  }
  if (about.lines.length > 0) groups.push(about);

  let transcriptWanted: number;
  /** The turns of a day a question about past conversations names, when none was distilled. */
  let dayTurns: RankedHit[] = [];
  if (section === 'identity') {
    // The facts the question asks about by relation first ("Where do I live?" → lives_in),
    // then the agent's most salient ones.
    const typed = typedFactHits(deps, agentId, askedRelations(input.relations));
    const typedIds = new Set(typed.map((h) => h.id));
    const facts = [
      ...typed,
      ...topPinnedFacts(deps.db, agentId, 15)
        .filter((h) => !typedIds.has(h.id))
        .map((h): RankedHit => ({ ...h, scope: 'pinned' })),
    ];
    // What they said of themselves in passing follows, when extraction did not catch it
    // ("coming off three nights on the ward" for "What do I do for a living?").
    groups.push({
      ...hitGroup(SECTION_TITLES.pinned, facts, (h) => plainLine(h.content)),
      ...(input.presence?.transcript === false ? {} : { share: PRIMARY_SHARE }),
    });
    transcriptWanted = COMPLEMENT_LINES;
  } else if (section === 'pinned') {
    const hasFacts = input.presence?.pinned ?? true;
    const asked = askedRelations(input.relations);
    const typed = hasFacts ? typedFactHits(deps, agentId, asked) : [];
    const facts = !hasFacts
      ? []
      : await searchScope(deps, {
          agentId,
          scope: 'pinned',
          query: message,
          topK: 10,
          likeFallback: false,
        });
    const typedIds = new Set(typed.map((h) => h.id));
    const relevant = [
      ...typed,
      ...aboutTheQuestion(
        facts.filter((h) => !typedIds.has(h.id)),
        message,
        input.speakers,
      ),
    ];
    // A question about the user's own life asked in words no fact shares ("What's my other
    // half's name?"): the user's other facts follow, the most salient ones, closest to the
    // question first, in the room the facts' share of the budget leaves (a profile, as a
    // person who knows them would recall).
    if (hasFacts && FIRST_PERSON.test(message)) {
      const shown = new Set(relevant.map((h) => h.id));
      const profile = userFactHits(deps, agentId, PROFILE_FACTS).filter((h) => !shown.has(h.id));
      relevant.push(...closestFirst(profile, message, input.rankByMeaning));
    }
    groups.push({
      ...hitGroup(SECTION_TITLES.pinned, relevant, (h) => plainLine(h.content)),
      ...(input.presence?.transcript === false ? {} : { share: PRIMARY_SHARE }),
    });
    transcriptWanted = relevant.length > 0 ? COMPLEMENT_LINES : TRANSCRIPT_LINES;
  } else if (section === 'episode') {
    const episodes = !(input.presence?.episodes ?? true)
      ? []
      : await searchScope(deps, {
          agentId,
          scope: 'episodes',
          query: message,
          topK: EPISODES,
          likeFallback: false,
        });
    // The conversations of a day the question names ("what did we talk about yesterday?",
    // "what did I ask you on Saturday?") come first, whatever words they share with it.
    const dates = datesAskedAbout(message, deps.clock.now());
    const dated = (input.presence?.episodes ?? true) ? datedEpisodes(deps, agentId, dates) : [];
    // Not distilled (extraction off or still pending): the day's own turns stand in.
    if (dated.length === 0) dayTurns = datedTurns(deps, agentId, dates);
    const datedIds = new Set(dated.map((h) => h.id));
    const relevant = [
      ...dated,
      ...aboutTheQuestion(
        episodes.filter((h) => !datedIds.has(h.id)),
        message,
        input.speakers,
      ),
    ];
    groups.push({
      ...hitGroup(
        SECTION_TITLES.episode,
        relevant,
        (h) => `[${localDate(h.created_at)}] ${plainLine(h.content).replace(DATED_OPENING, '')}`,
      ),
      ...(input.presence?.transcript === false ? {} : { share: PRIMARY_SHARE }),
    });
    transcriptWanted = relevant.length > 0 ? COMPLEMENT_LINES : TRANSCRIPT_LINES;
  } else {
    transcriptWanted = TRANSCRIPT_LINES;
  }
  if (transcriptWanted > 0 && (input.presence?.transcript ?? true)) {
    const found = await searchScope(deps, {
      agentId,
      scope: 'transcript',
      query: message,
      topK: transcriptWanted,
      likeFallback: false,
    });
    const dayIds = new Set(dayTurns.map((h) => h.id));
    const lines = [...dayTurns, ...found.filter((h) => !dayIds.has(h.id))];
    // A question about the user's own life may be asked in other words than they told it
    // ("Which city am I based in?" / "we've relocated to Porto"): a few turns found by
    // meaning follow the lexical ones, and take only the room those leave.
    if (section === 'pinned' || section === 'identity') {
      const seen = new Set(lines.map((h) => h.id));
      // The user's own words: what they said about themselves, not the assistant's answers
      // (long generic replies sit near every question by averaged word meaning).
      const self = FIRST_PERSON.test(message);
      const pool = self ? MEANING_POOL_SELF : MEANING_POOL;
      const own = (await turnsByMeaning(deps, agentId, message, pool)).filter(
        (h) => h.role === 'user' && !seen.has(h.id) && !onlyAsksAboutUser(h.content),
      );
      const ranked = closestFirst(own, message, input.rankByMeaning);
      // A question about the user: what they said of themselves is what it needs, whatever
      // words it shares, so those turns go first and the lexical lines fill the room after
      // them. About someone else (a named person of a labelled log), the shared words lead.
      if (self) lines.unshift(...ranked.slice(0, BY_MEANING_SELF));
      else lines.push(...ranked.slice(0, BY_MEANING));
    }
    // The user's own earlier message with the same words (the question asked again), or any
    // earlier question of theirs about themselves, is no memory: it answers nothing.
    const asked = words(message).join(' ');
    const answers = lines.filter(
      (h) =>
        h.role !== 'user' ||
        (words(h.content).join(' ') !== asked && !onlyAsksAboutUser(h.content)),
    );
    groups.push(
      hitGroup(SECTION_TITLES.transcript, answers, (h) => transcriptLine(h, input.speakers)),
    );
  }

  const forgotten = input.forgotten ?? [];
  const visible =
    forgotten.length === 0
      ? groups
      : groups.map((g) => ({
          ...g,
          lines: g.lines.filter((l) => !statesForgotten(l.text, forgotten)),
        }));
  const { block, used, tokens, lines } = fitBlock(visible, input.budgetTokens);
  if (block === '') return { section, block: '', tokens: 0 };

  if (input.bumpUsage !== false) {
    const now = deps.clock.now();
    const pinnedIds = used.filter((h) => h.scope === 'pinned').map((h) => h.id);
    const episodeIds = used.filter((h) => h.scope === 'episodes').map((h) => h.id);
    bumpPinnedUsage(deps.db, agentId, pinnedIds, now);
    bumpEpisodeUsage(deps.db, agentId, episodeIds, now);
  }
  return { section, block, tokens, lines };
}

/**
 * The rows of the dates a question names (the first two), each once: those of the day itself
 * before those the time zones' slack lets in from the days around it, in `fetch`'s order
 * within each. With `slackOnlyWhenEmpty`, the slack's rows come only for a date whose day
 * itself has none.
 */
function ofNamedDays(
  dates: readonly TimeWindow[],
  fetch: (d: TimeWindow) => StoredHit[],
  scope: RankedHit['scope'],
  limit: number,
  slackOnlyWhenEmpty = false,
): RankedHit[] {
  const out: RankedHit[] = [];
  const seen = new Set<number>();
  for (const d of dates.slice(0, 2)) {
    const hits = fetch(d);
    const inDay = (h: StoredHit) =>
      h.created_at >= d.from + d.slack && h.created_at < d.to - d.slack;
    const day = hits.filter(inDay);
    const slack = slackOnlyWhenEmpty && day.length > 0 ? [] : hits.filter((h) => !inDay(h));
    for (const h of [...day, ...slack]) {
      if (seen.has(h.id)) continue;
      seen.add(h.id);
      out.push({ ...h, scope });
    }
  }
  return out.slice(0, limit);
}

/** The episodes of the days a question names, newest first. */
function datedEpisodes(deps: SearchDeps, agentId: string, dates: readonly TimeWindow[]) {
  const fetch = (d: TimeWindow) =>
    episodesWithin(deps.db, { agentId, from: d.from, to: d.to, limit: EPISODES * 3 });
  return ofNamedDays(dates, fetch, 'episodes', EPISODES);
}

/**
 * The turns of the days a question names in the order they were said: a day read back. The
 * block shows conversation lines in time order, so a neighbouring day's turns let in by the
 * time zones' slack would read first: they come only when the day itself has none.
 */
function datedTurns(deps: SearchDeps, agentId: string, dates: readonly TimeWindow[]) {
  const fetch = (d: TimeWindow) =>
    transcriptWithin(deps.db, { agentId, from: d.from, to: d.to, limit: DAY_TURNS * 3 });
  return ofNamedDays(dates, fetch, 'transcript', DAY_TURNS, true);
}

/** The relations a question asks about: the best ones above RELATION_ASKED. */
function askedRelations(relations: PlanInput['relations']): string[] {
  return (relations ?? [])
    .filter((r) => r.score >= RELATION_ASKED)
    .slice(0, RELATIONS_ASKED)
    .map((r) => r.relation);
}

/** Typed facts of the asked relations, best relation first, each newest first. */
function typedFactHits(deps: SearchDeps, agentId: string, relations: string[]): RankedHit[] {
  if (relations.length === 0) return [];
  const facts = factsByRelation(deps.db, agentId, relations, TYPED_FACTS * 2);
  const rank = (r: string | null) => (r === null ? relations.length : relations.indexOf(r));
  return facts
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f.relation) - rank(b.f.relation) || a.i - b.i)
    .slice(0, TYPED_FACTS)
    .map(({ f }) => factHit(f));
}

function userFactHits(deps: SearchDeps, agentId: string, limit: number): RankedHit[] {
  return userFacts(deps.db, agentId, limit).map(factHit);
}

/** A fact read by relation or as part of the profile, as a block line's hit (no score). */
function factHit(f: {
  id: number;
  content: string;
  created_at: number;
  conversation_id?: string | null;
}): RankedHit {
  return {
    id: f.id,
    content: f.content,
    created_at: f.created_at,
    conversation_id: f.conversation_id ?? null,
    role: null,
    score: 0,
    scope: 'pinned',
  };
}

function hitGroup(title: string, hits: RankedHit[], render: (h: RankedHit) => string): Group {
  return { title, lines: hits.map((hit, i) => ({ text: render(hit), hit, order: i })) };
}

/**
 * Lays the groups out under the budget: lines are taken in relevance order across groups
 * (group by group), each cut to MAX_LINE_TOKENS; conversation lines are then shown in time
 * order. The final block is re-counted and trimmed so it never exceeds the budget. '' when no
 * line fits.
 */
/** Turns re-ranked by how close each comes to the question (stable; unchanged without). */
function closestFirst(
  hits: RankedHit[],
  question: string,
  rank: PlanInput['rankByMeaning'],
): RankedHit[] {
  if (!rank || hits.length === 0) return hits;
  const scores = rank(
    question,
    hits.map((h) => h.content),
  );
  return hits
    .map((h, i) => ({ h, i, s: scores[i] ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.h);
}

export function fitBlock(
  groups: Group[],
  budgetTokens: number,
): {
  block: string;
  used: RankedHit[];
  tokens: number;
  /** The block's lines in order, with where each came from. */
  lines: { text: string; source: ActivitySource }[];
} {
  const head = '[Memory]';
  const tail = '[/Memory]';
  let spent = countTokens(`${head}\n${tail}`);
  const chosen = new Map<Group, Group['lines']>();
  const kept: LineKey[] = [];
  for (const g of groups) {
    const titleCost = countTokens(`\n## ${g.title}`);
    const cap = g.share === undefined ? Infinity : Math.floor(budgetTokens * g.share);
    let groupSpent = 0;
    for (const line of g.lines) {
      // A line that repeats one already in the block (an identity fact that is also a pinned
      // fact, a turn quoted inside an episode summary, the same message sent twice) costs
      // tokens and adds nothing.
      const key = lineKey(line.text);
      if (kept.some((k) => repeats(key, k))) continue;
      const title = chosen.has(g) ? 0 : titleCost;
      const room = Math.min(budgetTokens - spent, cap - groupSpent) - title - LINE_PREFIX_TOKENS;
      if (room <= 3) break;
      // One count per line in the common case; only long lines are cut and re-counted.
      let text = line.text;
      let cost = countTokens(`\n- ${text}`);
      if (cost - LINE_PREFIX_TOKENS > Math.min(MAX_LINE_TOKENS, room)) {
        text = truncateToTokens(text, Math.min(MAX_LINE_TOKENS, room));
        // A line cut to its first few words ("[2026-11-28] User: I am…") says nothing: the
        // room goes to a shorter line further down.
        if (countTokens(text.replace(LINE_PREFIX, '')) < MIN_CUT_TOKENS) continue;
        cost = countTokens(`\n- ${text}`);
      }
      cost += title;
      if (spent + cost > budgetTokens || groupSpent + cost > cap) continue;
      spent += cost;
      groupSpent += cost;
      kept.push(key);
      const list = chosen.get(g) ?? [];
      list.push({ ...line, text });
      chosen.set(g, list);
    }
  }
  const inBlockOrder = (g: Group): Group['lines'] => {
    const lines = chosen.get(g) ?? [];
    return g.title === SECTION_TITLES.transcript
      ? [...lines].sort(
          (a, b) =>
            (a.hit?.created_at ?? 0) - (b.hit?.created_at ?? 0) ||
            (a.hit?.id ?? 0) - (b.hit?.id ?? 0),
        )
      : lines;
  };
  const render = (): string => {
    const parts = [head];
    for (const g of groups) {
      const ordered = inBlockOrder(g);
      if (ordered.length === 0) continue;
      parts.push(`## ${g.title}`);
      for (const l of ordered) parts.push(`- ${l.text}`);
    }
    parts.push(tail);
    return parts.join('\n');
  };
  const hasLines = () => [...chosen.values()].some((l) => l.length > 0);
  if (!hasLines()) return { block: '', used: [], tokens: 0, lines: [] };
  let block = render();
  // Token counts of the parts and of the whole can differ by a token or two at the joins.
  while (spent + 8 > budgetTokens && countTokens(block) > budgetTokens && hasLines()) {
    const last = [...chosen.entries()].reverse().find(([, l]) => l.length > 0);
    last?.[1].pop();
    block = hasLines() ? render() : '';
  }
  const used = [...chosen.values()].flat().flatMap((l) => (l.hit ? [l.hit] : []));
  const lines = groups.flatMap((g) =>
    inBlockOrder(g).flatMap((l) => {
      const source = l.hit ? { scope: l.hit.scope, id: l.hit.id } : l.source;
      return source ? [{ text: l.text, source }] : [];
    }),
  );
  return { block, used, tokens: block === '' ? 0 : countTokens(block), lines };
}

interface LineKey {
  /** The words of the line without its date and role prefix, lower-cased, space-joined. */
  text: string;
  words: Set<string>;
}

const LINE_PREFIX = /^(?:\[\d{4}-\d{2}-\d{2}\]\s*)?(?:(?:User|Assistant):\s*)?/u;
/** Word-set Jaccard from which two lines count as the same memory. */
const NEAR_DUPLICATE = 0.85;

function lineKey(text: string): LineKey {
  const body = text.replace(LINE_PREFIX, '');
  return { text: words(body).join(' '), words: wordSet(body) };
}

/** True when `a` says nothing that `b` does not: contained verbatim, or nearly the same words. */
function repeats(a: LineKey, b: LineKey): boolean {
  if (a.text.length === 0) return false;
  if (` ${b.text} `.includes(` ${a.text} `)) return true;
  return a.words.size >= 3 && jaccard(a.words, b.words) >= NEAR_DUPLICATE;
}

/** Crude stem for matching a query word against a memory line ("designed" ~ "design"). */
function stem(word: string): string {
  return word.length > 5 ? word.slice(0, 5) : word;
}

/**
 * Facts and episodes that share a word with the question besides the names of people: in a
 * memory about two people, every fact names one of them, and "Omar loves performing" is no
 * answer to "when did Omar lose his job?". Without any other word, nothing is dropped.
 */
function aboutTheQuestion(
  hits: RankedHit[],
  message: string,
  people: ReadonlySet<string> | undefined,
): RankedHit[] {
  const terms = queryTerms(message).filter((t) => !(people?.has(t) ?? false));
  if (terms.length === 0) return hits;
  const wanted = new Set(terms.map(stem));
  return hits.filter((h) => words(h.content).some((w) => wanted.has(stem(w))));
}
