import type { ChatMessageLike } from '../services.ts';

/**
 * Puts the memory block in front of the latest user message (DESIGN §5 step 4) and returns a
 * new array; the input array and its messages are never mutated. String content becomes
 * `block + '\n\n' + content`; content-part arrays (multimodal) get a leading text part. An
 * empty block, or a conversation without a user message, leaves the messages as they were.
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
  const content = target.content;
  let next: ChatMessageLike;
  if (Array.isArray(content)) {
    next = { ...target, content: [{ type: 'text', text: block }, ...content] };
  } else if (typeof content === 'string') {
    next = { ...target, content: content === '' ? block : `${block}\n\n${content}` };
  } else {
    // null / missing content: the block is the whole message.
    next = { ...target, content: block };
  }
  const out = messages.slice();
  out[index] = next;
  return out;
}
