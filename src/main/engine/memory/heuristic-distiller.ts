// The heuristic distiller (DESIGN §6): no LLM. Turns a conversation into the same Digest the
// Core Model returns, so memory works with zero configuration and when the Core Model is down.
//
// Facts come only from first-person statements of a person: user messages, or any message
// that starts with a speaker label ("Caroline: I love hiking") — then the fact is about that
// speaker. Assistant messages without a label are an AI talking about itself and never yield
// facts. Questions, hypotheticals and reported speech never yield facts either.
import type { Digest, PinnedCandidate } from '../../../shared/digest.ts';

export interface HeuristicMessage {
  role: string;
  content: string;
  created_at: number;
}

export type FactKind = 'identity' | 'family' | 'preference' | 'decision' | 'habit' | 'plan';

export interface ExtractedFact {
  kind: FactKind;
  /** Normalised, third person ("User works at Acme", "Caroline loves hiking"). */
  content: string;
  salience: number;
  /** Also an always-on identity override (name, job, employer, location, age, pronouns). */
  identity: boolean;
  /** Filled for decisions and plans: goes into the episode's decisions / action_items. */
  decision?: string;
  actionItem?: string;
}

// ---------- text utilities ----------

const SPEAKER_LABEL = /^([A-Z][\p{L}'’-]{1,30}(?: [A-Z][\p{L}'’-]{1,30})?):\s+/u;
const NOT_SPEAKERS = new Set([
  'note',
  'update',
  'edit',
  'question',
  'answer',
  'q',
  'a',
  'ps',
  'tldr',
  'summary',
  'warning',
  'error',
  'example',
  'step',
  'todo',
  'assistant',
  'system',
  'tool',
  'ai',
  'bot',
  'model',
]);
const USER_LABELS = new Set(['user', 'human', 'me']);

/** Splits a leading speaker label ("Caroline: ...") off a message. */
export function splitSpeaker(text: string): { speaker: string | null; body: string } {
  const m = SPEAKER_LABEL.exec(text);
  if (!m) return { speaker: null, body: text };
  const name = m[1]!;
  if (NOT_SPEAKERS.has(name.toLowerCase())) return { speaker: null, body: text };
  return {
    speaker: USER_LABELS.has(name.toLowerCase()) ? 'User' : name,
    body: text.slice(m[0]!.length),
  };
}

/** Sentences of a message (newlines and end punctuation followed by a capital or quote). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.replace(/```[\s\S]*?```/g, ' ').split(/\n+/)) {
    const parts = line
      .replace(/\s+/g, ' ')
      .split(/(?<=[.!?…])\s+(?=["'“‘(]?[A-Z0-9])/u)
      .map((s) => s.replace(/^[-*•>\s]+/, '').trim())
      .filter((s) => s.length > 1);
    out.push(...parts);
  }
  return out;
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

// ---------- fact extraction ----------

const QUESTION_START =
  /^(?:do|does|did|would|could|can|should|will|are|is|was|were|what|why|how|when|where|who|whom|which|have|has|shall|may|might|am)\b/i;
const HYPOTHETICAL =
  /\b(?:if|imagine|imagining|suppose|supposing|pretend|hypothetically|what if|in theory|would you|as if|assuming|wish i)\b/i;
const REPORTED = /\b(?:said|says|thinks?|told me|believes?|claims?|according to|asked)\b.*\bi\b/i;
const UNCERTAIN = /\b(?:not sure|don't know|do not know|dunno|wonder(?:ing)?|unsure)\b/i;
const DEICTIC =
  /^(?:that|this|it|those|these|them|you|your|yours|how|what|when|where|the way|doing that|so much|to hear|hearing)\b/i;

const CLAUSE_END =
  /\s*(?:[;:!?—–]|\s-\s|(?<=\p{L})-\s|,\s*(?:it|it's|that's|this|they|he|she|i|which|who)\s|,\s*(?:but|because|since|so|and then|which|although|though|while|as well|especially)\b|\s(?:but|because|'cause|cause|cuz|since|although|though|whereas)\s|,?\s(?:and|so|or) (?:i|we|my|they|he|she|it)\s|\.(?:\s|$))/iu;

/** The object of a statement: up to the end of its clause, trimmed, at most ~120 chars. */
function clauseObject(rest: string): string | null {
  const cut = CLAUSE_END.exec(rest);
  let obj = (cut ? rest.slice(0, cut.index) : rest).trim();
  obj = obj.replace(/[.,!?…"'”’)\s]+$/u, '').trim();
  if (obj.length > 120) {
    const space = obj.lastIndexOf(' ', 120);
    obj = obj.slice(0, space > 40 ? space : 120);
  }
  if (!obj) return null;
  const content = words(obj).filter((w) => !STOPWORDS.has(w));
  if (content.length === 0) return null;
  return obj;
}

/** First person → third person inside an object ("my dog" → "their dog"). */
function thirdPerson(text: string): string {
  return text
    .replace(/\bI(?:['’]m| am)\b/g, 'they are')
    .replace(/\bI was\b/g, 'they were')
    .replace(/\bI['’]ve\b/g, 'they have')
    .replace(/\bI['’]ll\b/g, 'they will')
    .replace(/\bI\b/g, 'they')
    .replace(/\bmyself\b/gi, 'themselves')
    .replace(/\bmy\b/gi, 'their')
    .replace(/\bmine\b/gi, 'theirs')
    .replace(/\bme\b/gi, 'them')
    .replace(/\bour\b/gi, 'their')
    .replace(/\bus\b/g, 'them');
}

const IRREGULAR: Record<string, string> = {
  have: 'has',
  do: 'does',
  go: 'goes',
  be: 'is',
  am: 'is',
  "don't": "doesn't",
  "can't": "can't",
  can: 'can',
  will: 'will',
  would: 'would',
  should: 'should',
  must: 'must',
  may: 'may',
  might: 'might',
};

/** "go to bed" → "goes to bed": conjugate the first verb for a third-person subject. */
function conjugate(phrase: string): string {
  const m = /^(\S+)(.*)$/s.exec(phrase);
  if (!m) return phrase;
  const verb = m[1]!;
  const rest = m[2] ?? '';
  const lower = verb.toLowerCase();
  let v: string;
  if (IRREGULAR[lower]) v = IRREGULAR[lower];
  else if (/(?:s|sh|ch|x|z|o)$/.test(lower)) v = lower + 'es';
  else if (/[^aeiou]y$/.test(lower)) v = lower.slice(0, -1) + 'ies';
  else if (/ed$/.test(lower)) v = lower;
  else v = lower + 's';
  return v + rest;
}

const JOB_WORDS =
  /\b(?:engineer|developer|programmer|designer|teacher|nurse|doctor|physician|surgeon|lawyer|attorney|manager|student|scientist|researcher|writer|author|journalist|artist|painter|consultant|accountant|analyst|architect|chef|cook|photographer|musician|counselor|counsellor|therapist|professor|lecturer|pharmacist|dentist|veterinarian|vet|firefighter|electrician|plumber|carpenter|mechanic|pilot|farmer|baker|barista|waiter|waitress|cashier|entrepreneur|founder|ceo|cto|cfo|director|editor|librarian|paramedic|officer|soldier|intern|freelancer|translator|tutor|coach|trainer|psychologist|economist|biologist|chemist|physicist|mathematician|statistician|administrator|assistant|secretary|clerk|recruiter|marketer|salesperson|realtor|investor|banker|tester|sysadmin|devops|retiree|retired)s?\b/i;

const FAMILY =
  'wife|husband|partner|spouse|son|daughter|kid|child|mom|mother|mum|dad|father|brother|sister|boyfriend|girlfriend|fiance|fiancee|fiancé|fiancée|grandma|grandmother|grandpa|grandfather|dog|cat|puppy|kitten|pet|baby|twin|cousin|aunt|uncle|niece|nephew|best friend|roommate';

const NUMBER_WORDS = '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d+)';

type Rule = (s: string, subject: string) => ExtractedFact | null;

/** Verbs and words that say nothing on their own ("keep going", "make it happen"). */
const VAGUE = new Set(
  (
    'keep make stay try go going get take be do help pass continue believe chase reach see ' +
    'happen work working thing things stuff it this that them these those there up on out ' +
    'going doing more better best good great way ways lot bit hard harder positive upbeat ' +
    'dream dreams goal goals never quit matter whatever comes savor vibes enjoy'
  ).split(' '),
);

/** At least two words that carry meaning: a plan or habit worth remembering. */
function isSpecific(obj: string): boolean {
  return words(obj).filter((w) => !STOPWORDS.has(w) && !VAGUE.has(w) && w.length > 2).length >= 2;
}

const possessive = (subject: string) => `${subject}'s`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const rules: Rule[] = [
  // name
  (s, subj) => {
    const m =
      /\b(?:[Mm]y name is|[Mm]y name['’]s|[Cc]all me|I am called|I['’]m called)\s+([A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)?)/u.exec(
        s,
      ) ??
      /^(?:hi|hello|hey)[,!]?\s+(?:there[,!]?\s+)?(?:i['’]m|i am|this is)\s+([A-Z][\p{L}'’-]+)\b/iu.exec(
        s,
      );
    if (!m || NOT_ENTITIES.has(m[1]!.split(' ')[0]!)) return null;
    if (subj !== 'User') return null; // a labelled speaker's name is already known
    return {
      kind: 'identity',
      content: `${possessive(subj)} name is ${m[1]!}`,
      salience: 0.95,
      identity: true,
    };
  },
  // pronouns
  (s, subj) => {
    const m = /\bmy pronouns are ([a-z]+\s*\/\s*[a-z]+(?:\s*\/\s*[a-z]+)?)/i.exec(s);
    if (!m) return null;
    return {
      kind: 'identity',
      content: `${possessive(subj)} pronouns are ${m[1]!.replace(/\s+/g, '').toLowerCase()}`,
      salience: 0.9,
      identity: true,
    };
  },
  // age
  (s, subj) => {
    const m =
      /\bi(?:['’]m| am) (\d{1,3}) (?:years old|yrs old|y\/o|yo)\b/i.exec(s) ??
      /\bi turned (\d{1,3})\b/i.exec(s);
    if (!m) return null;
    return {
      kind: 'identity',
      content: `${subj} is ${m[1]!} years old`,
      salience: 0.8,
      identity: true,
    };
  },
  // employer
  (s, subj) => {
    const m = /\bi (?:currently )?(?:work|am working|['’]m working) (?:at|for) (.+)/i.exec(s);
    if (!m) return null;
    const obj = clauseObject(m[1]!);
    if (!obj || DEICTIC.test(obj)) return null;
    return {
      kind: 'identity',
      content: `${subj} works at ${thirdPerson(obj)}`,
      salience: 0.85,
      identity: true,
    };
  },
  // job
  (s, subj) => {
    const m =
      /\bi (?:work|am working|['’]m working) as (?:an? )?(.+)/i.exec(s) ??
      /\bi(?:['’]m| am) (?:now |currently |also )?(?:an? )(.+)/iu.exec(s);
    if (!m) return null;
    const obj = clauseObject(m[1]!);
    // The job word must be the head of the phrase ("a nurse at ...", "a data engineer"),
    // not anywhere ("a bit tired of my manager").
    if (!obj || !JOB_WORDS.test(obj.split(' ').slice(0, 4).join(' '))) return null;
    if (/^(?:bit|little|lot|huge|big|fan|part|kind|sort)\b/i.test(obj)) return null;
    const article = /^[aeiou]/i.test(obj) ? 'an' : 'a';
    return {
      kind: 'identity',
      content: `${subj} is ${article} ${obj}`,
      salience: 0.85,
      identity: true,
    };
  },
  // location
  (s, subj) => {
    const m =
      /\bi (?:currently )?(live|am living|['’]m living|am based|['’]m based|moved|relocated|am from|['’]m from|come from|grew up) (?:in |to |from |out of )?(.+)/i.exec(
        s.replace(/\bi['’]m\b/gi, "i'm"),
      );
    if (!m) return null;
    const obj = clauseObject(m[2]!.split(',')[0]!);
    if (!obj || DEICTIC.test(obj) || !/^(?:the )?[A-Z]/.test(obj) || obj.split(' ').length > 6)
      return null;
    const verb = m[1]!.toLowerCase();
    const phrase = /from|come/.test(verb)
      ? `is from ${obj}`
      : verb === 'grew up'
        ? `grew up in ${obj}`
        : /moved|relocated/.test(verb)
          ? `moved to ${obj}`
          : `lives in ${obj}`;
    return { kind: 'identity', content: `${subj} ${phrase}`, salience: 0.85, identity: true };
  },
  // family and pets
  (s, subj) => {
    const named = new RegExp(
      `\\bmy (${FAMILY})(?:['’]s name is| is (?:called|named)| named| called|,) ([A-Z][\\p{L}'’-]+)`,
      'iu',
    ).exec(s);
    if (named && !NOT_ENTITIES.has(named[2]!)) {
      return {
        kind: 'family',
        content: `${possessive(subj)} ${named[1]!.toLowerCase()} is named ${named[2]!}`,
        salience: 0.8,
        identity: false,
      };
    }
    const has = new RegExp(
      `\\bi (?:have|['’]ve got|have got) (${NUMBER_WORDS} (?:${FAMILY})s?|kids|children)\\b`,
      'i',
    ).exec(s);
    if (has)
      return {
        kind: 'family',
        content: `${subj} has ${has[1]!.toLowerCase()}`,
        salience: 0.75,
        identity: false,
      };
    const status = /\bi(?:['’]m| am) (married|divorced|single|engaged|widowed|pregnant)\b/i.exec(s);
    if (status)
      return {
        kind: 'family',
        content: `${subj} is ${status[1]!.toLowerCase()}`,
        salience: 0.75,
        identity: false,
      };
    return null;
  },
  // favourites
  (s, subj) => {
    const m = /\bmy fav(?:ou?rite|e)? ([\p{L} ]{2,30}?) (?:is|are) (.+)/iu.exec(s);
    if (!m) return null;
    const obj = clauseObject(m[2]!);
    if (!obj || DEICTIC.test(obj)) return null;
    return {
      kind: 'preference',
      content: `${possessive(subj)} favorite ${m[1]!.toLowerCase()} is ${thirdPerson(obj)}`,
      salience: 0.65,
      identity: false,
    };
  },
  // preferences
  (s, subj) => {
    const m =
      /\bi (?:really |absolutely |just |truly |totally |also |actually |do |still )*(like|love|enjoy|adore|prefer|hate|dislike|detest|can['’]t stand|don['’]t like|do not like|don['’]t enjoy|am into|['’]m into|am allergic to|['’]m allergic to|am a (?:big |huge )?fan of|['’]m a (?:big |huge )?fan of)\s+(.+)/i.exec(
        s,
      );
    if (!m) return null;
    if (/\b(?:would|'d|’d)\s+(?:like|love)\b/i.test(s.slice(0, m.index + m[0]!.length)))
      return null;
    const obj = clauseObject(m[2]!);
    if (!obj || DEICTIC.test(obj) || /^to (?:hear|see|know)\b/i.test(obj)) return null;
    const raw = m[1]!.toLowerCase().replace(/[’]/g, "'");
    const verb = /into/.test(raw)
      ? 'is into'
      : /allergic/.test(raw)
        ? 'is allergic to'
        : /fan of/.test(raw)
          ? 'is a fan of'
          : raw === "can't stand"
            ? "can't stand"
            : /don't|do not/.test(raw)
              ? `doesn't ${raw.split(' ').pop()}`
              : conjugate(raw);
    return {
      kind: 'preference',
      content: `${subj} ${verb} ${thirdPerson(obj)}`,
      salience: 0.6,
      identity: false,
    };
  },
  // decisions
  (s, subj) => {
    const m =
      /\b(?:we|i)(?: have|['’]ve| finally)? decided (to|on|that) (.+)/i.exec(s) ??
      /\bi(?:['’]ll| will) go with (.+)/i.exec(s) ??
      /\blet['’]s (?:go with|use|pick|choose) (.+)/i.exec(s) ??
      /\bi(?:['’]ve| have) chosen (.+)/i.exec(s);
    if (!m) return null;
    const objRaw = m.length === 3 ? m[2]! : m[1]!;
    const obj = clauseObject(objRaw);
    if (!obj || DEICTIC.test(obj)) return null;
    const text =
      m.length === 3
        ? `${subj} decided ${m[1]!.toLowerCase()} ${thirdPerson(obj)}`
        : `${subj} chose ${thirdPerson(obj)}`;
    return { kind: 'decision', content: text, salience: 0.7, identity: false, decision: text };
  },
  // habits
  (s, subj) => {
    const m =
      /\bi (usually|always|often|normally|regularly|typically|never|rarely|sometimes) (.+)/i.exec(
        s,
      );
    const every =
      /\bevery (morning|day|evening|night|week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b,? i (.+)/i.exec(
        s,
      );
    if (m) {
      const obj = clauseObject(m[2]!);
      if (!obj || DEICTIC.test(obj) || /^(?:do|did|have|had|am|was)\b$/i.test(obj)) return null;
      return {
        kind: 'habit',
        content: `${subj} ${m[1]!.toLowerCase()} ${thirdPerson(conjugate(obj))}`,
        salience: 0.55,
        identity: false,
      };
    }
    if (every) {
      const obj = clauseObject(every[2]!);
      if (!obj) return null;
      return {
        kind: 'habit',
        content: `Every ${every[1]!.toLowerCase()}, ${subj === 'User' ? 'the user' : subj} ${thirdPerson(conjugate(obj))}`,
        salience: 0.55,
        identity: false,
      };
    }
    return null;
  },
  // plans and goals
  (s, subj) => {
    const going = /\bi am going to ((?:a|an|the|my|our|see|visit)\b.+)/i.exec(s);
    if (going) {
      // "I'm going to a conference" is an outing, not an intention to do something.
      const obj = clauseObject(going[1]!);
      if (!obj || !/^(?:a|an|the|my|our)\b/i.test(obj) || !isSpecific(obj)) return null;
      const text = `${subj} is going to ${thirdPerson(obj)}`;
      return { kind: 'plan', content: text, salience: 0.6, identity: false, actionItem: text };
    }
    const m =
      /\bi am (?:planning|going|hoping|aiming|about|trying) to (.+)/i.exec(s) ??
      /\bi (?:plan|intend|hope|want|need|aim) to (.+)/i.exec(s) ??
      /\bi am (?:currently |now )?((?:starting|learning|studying|training for|building|writing|working on|saving for|preparing for) .+)/i.exec(
        s,
      ) ??
      /\bmy (?:goal|plan|dream) is to (.+)/i.exec(s) ??
      /\bi am gonna (.+)/i.exec(s);
    if (!m) return null;
    const obj = clauseObject(m[1]!);
    if (!obj || DEICTIC.test(obj) || !isSpecific(obj)) return null;
    const ongoing =
      /^(?:starting|learning|studying|training|building|writing|working|saving|preparing)\b/i.test(
        obj,
      );
    if (ongoing && /^\S+ to\b/.test(obj)) return null; // "starting to realize"
    const text = ongoing
      ? `${subj} is ${thirdPerson(obj)}`
      : `${subj} plans to ${thirdPerson(obj)}`;
    return {
      kind: 'plan',
      content: text,
      salience: 0.6,
      identity: false,
      ...(ongoing ? {} : { actionItem: text }),
    };
  },
];

/** Is this sentence a statement that may carry a fact about its speaker? */
function isFactual(sentence: string): boolean {
  const s = sentence.trim();
  if (s.endsWith('?')) return false;
  if (QUESTION_START.test(s)) return false;
  if (HYPOTHETICAL.test(s)) return false;
  if (REPORTED.test(s)) return false;
  if (UNCERTAIN.test(s)) return false;
  return true;
}

/** Facts stated in one sentence by `subject` ("User" or a speaker's name). */
export function extractFactsFromSentence(sentence: string, subject = 'User'): ExtractedFact[] {
  const s = sentence
    .replace(/[‘’]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/\bI'm\b/gi, 'I am')
    .replace(/\bI've\b/gi, 'I have')
    .replace(/\bI'll\b/gi, 'I will')
    .replace(/\bI'd\b/gi, 'I would')
    .trim();
  if (!isFactual(s)) return [];
  const out: ExtractedFact[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    const f = rule(s, subject);
    if (!f) continue;
    f.content = cap(f.content.replace(/\s+/g, ' ').trim());
    const key = f.content.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/** Facts of a whole message (one subject). */
export function extractFactsFromText(text: string, subject = 'User'): ExtractedFact[] {
  return splitSentences(text).flatMap((s) => extractFactsFromSentence(s, subject));
}

// ---------- episode ----------

interface ScoredSentence {
  text: string;
  speaker: string;
  mayState: boolean;
  order: number;
  score: number;
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

/** Capitalised names (consecutive capitalised words joined), not sentence-initial stopwords. */
export function extractEntities(sentences: string[], k = 12): string[] {
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
}

/** A Digest from the conversation's messages, with no LLM. */
export function heuristicDigest(
  messages: HeuristicMessage[],
  options: HeuristicOptions = {},
): Digest {
  const sentences: ScoredSentence[] = [];
  const facts: ExtractedFact[] = [];
  let order = 0;
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const { speaker: label, body } = splitSpeaker(m.content);
    const speaker = label ?? (m.role === 'user' ? 'User' : 'Assistant');
    const mayState = label !== null || m.role === 'user';
    // "Hi! I'm Ada." splits into two sentences; the greeting is what makes "I'm Ada" a name.
    const greeting =
      /^(?:hi|hello|hey)(?: there)?[,!.]*\s+(?:I['’]m|I am|this is)\s+([A-Z][\p{L}'’-]+)[.!,]/iu.exec(
        body.trim(),
      );
    if (m.role === 'user' && label === null && greeting && !NOT_ENTITIES.has(greeting[1]!)) {
      facts.push({
        kind: 'identity',
        content: `User's name is ${greeting[1]!}`,
        salience: 0.95,
        identity: true,
      });
    }
    for (const text of splitSentences(body)) {
      sentences.push({ text, speaker, mayState, order: order++, score: 0 });
      if (mayState) facts.push(...extractFactsFromSentence(text, speaker));
    }
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
    if (s.mayState && extractFactsFromSentence(s.text, s.speaker).length) score += 2;
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
  const seen = new Set<string>();
  for (const f of facts) {
    const key = f.content.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push({ content: f.content, salience: f.salience, tags: [f.kind] });
    if (f.identity) identityFacts.push(f.content);
    if (f.decision) decisions.push(f.decision);
    if (f.actionItem) actionItems.push(f.actionItem);
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
    pinned_candidates: candidates.slice(0, 50),
    identity_facts: identityFacts.slice(0, 20),
  };
}
