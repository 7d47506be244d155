// Claude Code puts `<system-reminder>...</system-reminder>` blocks inside user messages (the
// project's CLAUDE.md, the todo list, notes about files that changed). They are the client's
// words, not the user's: recorded, they would fill the transcript with the same boilerplate in
// every turn, be searched and distilled as if the user had said them, and steer the gate and the
// planner away from what was asked. The memory step removes them from the text it records and
// looks memory up for; the request forwarded to the upstream keeps them.
//
// Only closed blocks are removed: an opening tag alone is more likely the user quoting the tag
// than a client's block, and the words after it are kept.

const BLOCK = /<system-reminder\b[^>]*>[\s\S]*?<\/system-reminder\s*>/giu;
const MAYBE_BLOCK = /<system-reminder/iu;

/**
 * `text` without its closed system-reminder blocks; the blank lines a block leaves are folded
 * into one paragraph break and the ends trimmed. Text without a block comes back unchanged.
 */
export function stripSystemReminders(text: string): string {
  if (!MAYBE_BLOCK.test(text)) return text;
  const stripped = text.replace(BLOCK, '\n\n');
  if (stripped === text) return text;
  return stripped.replace(/[ \t]*(?:\r?\n[ \t]*){2,}/gu, '\n\n').trim();
}
