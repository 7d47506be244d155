// What the upstream received of Cairn's memory: the block inside a user message, and whether
// a value is in it. Shared by the benches that read the scripted upstream's requests.

/** The memory block inside a user message as the upstream received it ('' when none). */
export function memoryBlockOf(text: string): string {
  const start = text.indexOf('[Memory]');
  const end = text.indexOf('[/Memory]', start);
  return start === -1 || end === -1 ? '' : text.slice(start, end + '[/Memory]'.length);
}

/** The text of a chat message's content (a string, or the text parts of an array). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? (part.text ?? '') : '',
    )
    .join('\n');
}

/** `value` as a whole word (or phrase) of `text`, case-insensitive. */
export function containsWord(text: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}
