// The last step of sticky memory in every route (sticky-memory.ts): the request's messages
// with the contents placeMemory returned put in. Chat and Ollama messages, Anthropic messages
// and Responses input items all carry their text in `content`.
import type { MessageContent } from '../memory/inject.ts';

/**
 * The messages with the content placeMemory gave them, by index (a block added or re-inserted):
 * new objects, the input untouched; the same array when nothing was placed.
 */
export function withPlacedContents<M extends object>(
  messages: M[],
  contents: ReadonlyMap<number, MessageContent>,
): M[] {
  if (contents.size === 0) return messages;
  return messages.map((m, i) => (contents.has(i) ? { ...m, content: contents.get(i) } : m));
}
