import { stripPrivate } from '../text/private.ts';
import { createHash } from 'node:crypto';
import type { ChatMessageLike } from '../services.ts';

// Where the memory block goes inside a user message (DESIGN §5 step 4, §9), for every wire
// format: after what the user sent. String content gets the block appended after a blank line;
// a content-part array (multimodal, or an Anthropic message that starts with tool_result
// blocks, which must stay first) gets the block as its own text part at the end. The addition
// is described by its exact bytes so it can be remembered and re-inserted unchanged when the
// client re-sends the message (prompt caches match exact prefixes only).

/** A message's content in any of the formats: a string, an array of parts, or nothing. */
export type MessageContent = string | readonly unknown[] | null | undefined;

/** What was added to one message: text appended to a string, or one part appended to an array. */
export interface ContentAddition {
  shape: 'suffix' | 'part';
  /** The appended text (suffix), or the appended part serialised as JSON (part). */
  added: string;
}

/**
 * How `block` is added to `content`. `partType` is the text part's type in the request's
 * format (`text` for chat and Anthropic, `input_text` for Responses).
 */
export function memoryAdditionFor(
  content: MessageContent,
  block: string,
  partType = 'text',
): ContentAddition {
  if (Array.isArray(content)) {
    return { shape: 'part', added: JSON.stringify({ type: partType, text: block }) };
  }
  const text = typeof content === 'string' ? content : '';
  return { shape: 'suffix', added: text === '' ? block : `\n\n${block}` };
}

/** The content with the addition in place; the input is never mutated. */
export function applyAddition(content: MessageContent, addition: ContentAddition): MessageContent {
  if (addition.shape === 'part') {
    const part: unknown = JSON.parse(addition.added);
    return Array.isArray(content) ? [...(content as unknown[]), part] : [part];
  }
  return (typeof content === 'string' ? content : '') + addition.added;
}

/** Drops `cache_control` marks: clients move them between turns without changing the message. */
function withoutCacheMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k !== 'cache_control') out[k] = withoutCacheMarks(v);
    }
    return out;
  }
  return value;
}

/**
 * A hash of a message's original content (what the client sent), stable across the client's
 * resends: cache_control marks, which clients move to the newest message, are left out.
 */
export function contentHash(content: MessageContent): string {
  // Private spans are replaced before hashing: the stored hash must not let a short secret be
  // guessed back (DESIGN §6: nothing derived from <private> text is stored).
  const canonical = stripPrivate(JSON.stringify(withoutCacheMarks(content ?? null)));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/**
 * Adds the block to the latest user message of a chat-completions message list (appended, as
 * above) and returns a new array; the input array and its messages are never mutated. An empty
 * block, or a conversation without a user message, leaves the messages as they were.
 */
export function injectMemory(messages: ChatMessageLike[], block: string): ChatMessageLike[] {
  if (block === '') return messages;
  let index = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      index = i;
      break;
    }
  }
  if (index === -1) return messages;
  const target = messages[index] as ChatMessageLike;
  const addition = memoryAdditionFor(target.content, block);
  const out = messages.slice();
  out[index] = {
    ...target,
    content: applyAddition(target.content, addition) as ChatMessageLike['content'],
  };
  return out;
}
