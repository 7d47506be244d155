// Claude's data export (claude.ai → Settings → Privacy → Export data), `conversations.json`:
// a list of conversations (`uuid`, `name`, `created_at`), each with its `chat_messages` in
// order (`sender`: human or assistant, `text`, `content` blocks, `created_at`). Newer exports
// put the text in `content` blocks (`{type: 'text', text}`, beside tool use, tool results and
// thinking, which are not what the user or the assistant said) and may leave `text` empty;
// older ones have `text` only.
import { z } from 'zod';
import {
  checkedIsoTime,
  type ImportedConversation,
  type ImportedMessage,
  importedConversationId,
  joinText,
  parseFormat,
} from './imported.ts';

const Block = z.object({ type: z.string(), text: z.string().nullable().optional() });

const Message = z.object({
  sender: z.string(),
  text: z.string().nullable().optional(),
  content: z.array(Block).nullable().optional(),
  created_at: z.string().nullable().optional(),
});
type Message = z.infer<typeof Message>;

const Conversation = z.object({
  uuid: z.string().optional(),
  name: z.string().nullable().optional(),
  created_at: z.string(),
  chat_messages: z.array(Message),
});
type Conversation = z.infer<typeof Conversation>;

export const ClaudeExport = z.array(Conversation);

const ROLES: Record<string, ImportedMessage['role']> = {
  human: 'user',
  user: 'user',
  assistant: 'assistant',
};

function messageText(m: Message): string {
  const blocks = (m.content ?? []).filter((b) => b.type === 'text' && b.text);
  const fromBlocks = joinText(blocks.map((b) => b.text!));
  return fromBlocks !== '' ? fromBlocks : (m.text ?? '').trim();
}

function readConversation(c: Conversation, index: number, now: number): ImportedConversation {
  const where = `data.${index}`;
  const started = checkedIsoTime('claude', c.created_at, `${where}.created_at`, now);
  const messages: ImportedMessage[] = [];
  let last = started;
  c.chat_messages.forEach((m, i) => {
    const role = ROLES[m.sender];
    if (role === undefined) return;
    const content = messageText(m);
    if (content === '') return;
    const at = m.created_at
      ? checkedIsoTime('claude', m.created_at, `${where}.chat_messages.${i}.created_at`, now)
      : last;
    last = at;
    messages.push({ role, content, at });
  });
  return { conversationId: importedConversationId('claude', c.uuid, messages), messages };
}

/** Reads Claude's conversations.json; throws a 400 naming what is wrong. */
export function parseClaudeExport(data: unknown, now: number): ImportedConversation[] {
  const conversations = parseFormat('claude', ClaudeExport, data);
  return conversations.map((c, i) => readConversation(c, i, now));
}
