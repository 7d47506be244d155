// `<private>...</private>` spans (DESIGN §6) are removed before anything derived from a
// conversation is stored. An unclosed `<private>` hides everything after it: when in doubt,
// remember less.
const CLOSED = /<private\b[^>]*>[\s\S]*?<\/private\s*>/gi;
const UNCLOSED = /<private\b[^>]*>[\s\S]*$/i;
const STRAY_CLOSE = /<\/private\s*>/gi;

export function stripPrivate(text: string): string {
  if (!/private/i.test(text)) return text;
  return text
    .replace(CLOSED, ' ')
    .replace(UNCLOSED, ' ')
    .replace(STRAY_CLOSE, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +\n/g, '\n')
    .trim();
}

export function hasPrivate(text: string): boolean {
  return /<private\b/i.test(text);
}
