// The Core Model (DESIGN §6) as the engine and the Settings page both see it: which upstream
// counts as "on this machine" (so distilling with the chat model costs nothing), the prompt the
// distiller sends, and what one distillation costs in input tokens. No Node or DOM APIs.

/**
 * Whether a host name is this machine: `localhost` (and names under `.localhost`, which
 * resolvers must send to loopback, RFC 6761 §6.3), 127.0.0.0/8, `::1` and the IPv4-mapped
 * form of a 127.x address. A name that merely resolves to loopback through DNS is not
 * recognised: Cairn cannot know it without asking the network.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(.+)$/.exec(host);
  if (mapped) return isLoopbackIpv4(mapped[1]!) || isMappedLoopbackHex(mapped[1]!);
  return isLoopbackIpv4(host);
}

function isLoopbackIpv4(host: string): boolean {
  const parts = host.split('.');
  if (parts.length !== 4) return false;
  if (!parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return false;
  return parts[0] === '127';
}

/** `::ffff:7f00:1`, the form the URL parser normalises `::ffff:127.0.0.1` to. */
function isMappedLoopbackHex(rest: string): boolean {
  const m = /^([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(rest);
  return m !== null && parseInt(m[1]!, 16) >> 8 === 0x7f;
}

/** Whether an upstream base URL points at this machine; false for anything unparsable. */
export function isLoopbackUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The host of an upstream base URL as shown to the user (no credentials, path or query). */
export function upstreamHost(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/** The instructions of the one distillation request per conversation. */
export const DISTILL_SYSTEM_PROMPT = `You distil a conversation between a user and an assistant into long-term memory.
Answer with ONE JSON object and nothing else, with exactly these fields:
{
  "episode": {
    "summary": "3-6 sentences: what happened and what was said, with names, dates and numbers",
    "topics": ["short keyword", "..."],
    "entities": ["people, places, organisations, products named"],
    "decisions": ["decisions that were made"],
    "action_items": ["things someone committed to do"],
    "salience": 0.0-1.0 (how worth remembering this conversation is)
  },
  "pinned_candidates": [
    {"content": "one durable fact about the user, third person, e.g. 'User is vegetarian'", "salience": 0.0-1.0, "tags": ["preference"]}
  ],
  "identity_facts": ["core identity facts only: name, job, employer, location, age, pronouns, family"]
}
Rules: only facts the user stated about themselves (never the assistant's statements about itself,
never questions or hypotheticals). Use empty arrays when there is nothing. Write facts so they make
sense without the conversation. Never include secrets such as passwords or keys.`;

/** Characters of transcript the distiller sends at most (the newest are kept). */
export const DISTILL_MAX_TRANSCRIPT_CHARS = 24_000;

/** What the distiller puts before each message: `[2024-05-02] assistant: `. */
export const DISTILL_LINE_PREFIX_CHARS = '[2024-05-02] assistant: '.length;

/**
 * Characters per token of English text under the BPE tokenizers of current chat models (the
 * usual rule of thumb; core-model.test.ts checks the estimate against cl100k).
 */
export const CHARS_PER_TOKEN = 4;

/** The example the Settings page prices: ten exchanges, a short question and a longer answer. */
export const TYPICAL_CONVERSATION = { exchanges: 10, userChars: 200, assistantChars: 800 };

/**
 * Input tokens of one distillation request for a conversation of `messages` messages holding
 * `conversationChars` characters: the instructions plus the transcript (each message with its
 * date and role), the transcript cut to the newest DISTILL_MAX_TRANSCRIPT_CHARS.
 */
export function distillInputTokens(conversationChars: number, messages: number): number {
  const transcript = Math.min(
    conversationChars + messages * (DISTILL_LINE_PREFIX_CHARS + 1),
    DISTILL_MAX_TRANSCRIPT_CHARS,
  );
  const header = 'Conversation of 2024-05-02:\n\n'.length;
  return Math.ceil((DISTILL_SYSTEM_PROMPT.length + header + transcript) / CHARS_PER_TOKEN);
}

/** The two figures the Settings page quotes: a typical conversation and the ceiling. */
export function distillCostFigures(): {
  promptTokens: number;
  typicalTokens: number;
  typicalChars: number;
  maxTokens: number;
} {
  const t = TYPICAL_CONVERSATION;
  const typicalChars = t.exchanges * (t.userChars + t.assistantChars);
  return {
    promptTokens: Math.ceil(DISTILL_SYSTEM_PROMPT.length / CHARS_PER_TOKEN),
    typicalTokens: distillInputTokens(typicalChars, t.exchanges * 2),
    typicalChars,
    maxTokens: distillInputTokens(DISTILL_MAX_TRANSCRIPT_CHARS, 1),
  };
}
