// What a message frames as words that are not the writer's own statement about themselves:
// text in quotation marks ("Translate: 'My name is Pierre and I live in Marseille'") and
// the rest of a message once it sets up make-believe ("let's roleplay: I'm a crew member
// named Finn"). The clauses in such a frame are someone's lines, not facts about the user.
import type { AnalysedSentence, Tok } from './nlp.ts';

/** Per sentence of a message: which tokens are quoted, and whether it is make-believe. */
export interface SentenceFrame {
  /** One flag per token: inside a pair of quotation marks. */
  quoted: boolean[];
  /** The sentence sets up, or follows, a make-believe frame. */
  fiction: boolean;
}

const QUOTE_MARKS = new Set(['"', "'"]);

/** Words that name make-believe when the writer proposes it ("let's pretend", "can we roleplay"). */
const MAKE_BELIEVE = new Set(['pretend', 'imagine', 'roleplay', 'role-play', 'make-believe']);
/** Words that name make-believe by themselves, wherever they stand ("a roleplay", "rp as"). */
const FICTION_NOUNS = new Set(['roleplay', 'role-play']);
/** Openers of a proposal to the assistant: "let's", "let us", "can we", "shall we". */
const PROPOSAL_PAIRS = new Set(["let 's", 'let us', 'can we', 'could we', 'shall we']);

const isQuoteMark = (t: Tok) => t.pos === 'PUNCT' && QUOTE_MARKS.has(t.text);

/** "role - play" as wink writes it: joined back into one word. */
function wordsOf(toks: readonly Tok[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    const next = toks[i + 2];
    if (toks[i + 1]?.norm === '-' && next && /^\p{L}+$/u.test(t.norm + next.norm)) {
      out.push(`${t.norm}-${next.norm}`);
      i += 2;
    } else out.push(t.norm);
  }
  return out;
}

/** Whether a sentence sets up make-believe: "let's roleplay", "can we pretend", "a roleplay". */
function opensFiction(toks: readonly Tok[]): boolean {
  const words = wordsOf(toks).filter((w) => /\p{L}/u.test(w) || w === "'s");
  if (words.some((w) => FICTION_NOUNS.has(w))) return true;
  for (let i = 0; i + 1 < words.length; i++) {
    if (!PROPOSAL_PAIRS.has(`${words[i]} ${words[i + 1]}`)) continue;
    if (words.slice(i + 2, i + 5).some((w) => MAKE_BELIEVE.has(w))) return true;
  }
  return false;
}

/**
 * The frame of each sentence. Quotation marks pair up in order across the message, each kind
 * on its own; a kind with an odd count is left alone (an apostrophe after a plural, "my
 * parents' house", is written like a single quote).
 */
export function framesOf(sentences: readonly AnalysedSentence[]): SentenceFrame[] {
  const counts = new Map<string, number>();
  for (const s of sentences)
    for (const t of s.toks) if (isQuoteMark(t)) counts.set(t.text, (counts.get(t.text) ?? 0) + 1);
  const paired = (t: Tok) => isQuoteMark(t) && (counts.get(t.text) ?? 0) % 2 === 0;
  const open = new Set<string>();
  let fiction = false;
  return sentences.map((s) => {
    fiction = fiction || opensFiction(s.toks);
    const quoted = s.toks.map((t) => {
      if (!paired(t)) return open.size > 0;
      if (open.has(t.text)) open.delete(t.text);
      else open.add(t.text);
      return true;
    });
    return { quoted, fiction };
  });
}

/** Whether most of a run of tokens (its words) lies inside quotation marks. */
export function mostlyQuoted(
  frame: SentenceFrame,
  sentence: AnalysedSentence,
  toks: readonly Tok[],
): boolean {
  const from = sentence.toks.indexOf(toks[0]!);
  if (from < 0) return false;
  let words = 0;
  let quoted = 0;
  for (let k = 0; k < toks.length; k++) {
    if (toks[k]!.pos === 'PUNCT') continue;
    words++;
    if (frame.quoted[from + k]) quoted++;
  }
  return words > 0 && quoted * 2 > words;
}
