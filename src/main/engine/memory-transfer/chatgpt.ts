// ChatGPT's data export, `conversations.json`: a list of conversations, each a tree of
// message nodes (`mapping`: id → {message, parent, children}) because an edited question or a
// regenerated answer starts a branch. The conversation as the user last saw it is the path
// from `current_node` back to the root; the other branches are drafts and are not imported.
// Only what the user and the assistant wrote is kept: system and tool messages, hidden
// context, and non-text content (images, code run by tools, browsing results) are skipped.
import { z } from 'zod';
import {
  checkedTime,
  type ImportedConversation,
  type ImportedMessage,
  importedConversationId,
  importError,
  joinText,
  parseFormat,
  secondsToMs,
} from './imported.ts';

const Message = z.object({
  author: z.object({ role: z.string() }),
  create_time: z.number().nullable().optional(),
  content: z.object({
    content_type: z.string(),
    parts: z.array(z.unknown()).nullable().optional(),
  }),
  recipient: z.string().nullable().optional(),
  metadata: z
    .object({ is_visually_hidden_from_conversation: z.boolean().nullable().optional() })
    .nullable()
    .optional(),
});
type Message = z.infer<typeof Message>;

const Node = z.object({
  message: Message.nullable().optional(),
  parent: z.string().nullable().optional(),
  children: z.array(z.string()).nullable().optional(),
});
type Node = z.infer<typeof Node>;

const Conversation = z.object({
  id: z.string().optional(),
  conversation_id: z.string().optional(),
  title: z.string().nullable().optional(),
  create_time: z.number(),
  mapping: z.record(z.string(), Node),
  current_node: z.string().nullable().optional(),
});
type Conversation = z.infer<typeof Conversation>;

export const ChatGptExport = z.array(Conversation);

/** Content types that are text the user or the assistant wrote. */
const TEXT_CONTENT = new Set(['text', 'multimodal_text']);

/** The message's text, or null when it is nothing the user or the assistant wrote. */
function messageText(m: Message): string | null {
  if (m.author.role !== 'user' && m.author.role !== 'assistant') return null;
  if (m.metadata?.is_visually_hidden_from_conversation === true) return null;
  // An assistant message to a tool (`recipient: "python"`) is a call, not an answer.
  if (m.recipient && m.recipient !== 'all') return null;
  if (!TEXT_CONTENT.has(m.content.content_type)) return null;
  // multimodal_text mixes strings with image pointers (objects): the strings are the text.
  const text = joinText((m.content.parts ?? []).filter((p): p is string => typeof p === 'string'));
  return text === '' ? null : text;
}

/**
 * The leaf the conversation ends at: `current_node`, or (older exports without it) the end
 * of the newest branch from the root, following the last child at each step.
 */
function leafOf(c: Conversation, where: string): string | null {
  if (c.current_node) {
    if (!(c.current_node in c.mapping)) {
      throw importError(
        'chatgpt',
        `${where}.current_node: "${c.current_node.slice(0, 60)}" is not in mapping`,
      );
    }
    return c.current_node;
  }
  const root = Object.entries(c.mapping).find(([, n]) => !n.parent || !(n.parent in c.mapping));
  if (!root) return null;
  let id = root[0];
  const seen = new Set<string>();
  for (;;) {
    seen.add(id);
    const next = c.mapping[id]!.children?.at(-1);
    if (next === undefined || !(next in c.mapping) || seen.has(next)) return id;
    id = next;
  }
}

/** The nodes from the root to `leaf`, in order; a parent chain that loops is refused. */
function branchTo(c: Conversation, leaf: string, where: string): [string, Node][] {
  const path: [string, Node][] = [];
  const seen = new Set<string>();
  let id: string | null | undefined = leaf;
  while (id) {
    if (seen.has(id))
      throw importError('chatgpt', `${where}.mapping: the parent of "${id.slice(0, 60)}" loops`);
    seen.add(id);
    const node: Node | undefined = c.mapping[id];
    if (!node)
      throw importError(
        'chatgpt',
        `${where}.mapping: parent "${id.slice(0, 60)}" is not in mapping`,
      );
    path.push([id, node]);
    id = node.parent;
  }
  return path.reverse();
}

function readConversation(c: Conversation, index: number, now: number): ImportedConversation {
  const where = `data.${index}`;
  const started = checkedTime('chatgpt', secondsToMs(c.create_time), `${where}.create_time`, now);
  const leaf = leafOf(c, where);
  const messages: ImportedMessage[] = [];
  let last = started;
  for (const [id, node] of leaf === null ? [] : branchTo(c, leaf, where)) {
    const m = node.message;
    if (!m) continue;
    const content = messageText(m);
    if (content === null) continue;
    // A message without its own time (some system-made ones) follows the one before it.
    const at =
      m.create_time == null
        ? last
        : checkedTime(
            'chatgpt',
            secondsToMs(m.create_time),
            `${where}.mapping.${id.slice(0, 60)}.message.create_time`,
            now,
          );
    last = at;
    messages.push({ role: m.author.role as 'user' | 'assistant', content, at });
  }
  return {
    conversationId: importedConversationId('chatgpt', c.id ?? c.conversation_id, messages),
    messages,
  };
}

/** Reads ChatGPT's conversations.json; throws a 400 naming what is wrong. */
export function parseChatGptExport(data: unknown, now: number): ImportedConversation[] {
  const conversations = parseFormat('chatgpt', ChatGptExport, data);
  return conversations.map((c, i) => readConversation(c, i, now));
}
