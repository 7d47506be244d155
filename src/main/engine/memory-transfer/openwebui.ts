// Open WebUI's chat export (Settings → Chats → Export, or one chat's "Export chat (.json)"):
// a list of chats, each `{id, title, created_at, chat: {...}}`. A chat keeps its messages as a
// tree in `chat.history` (`messages`: id → {parentId, role, content, timestamp}, and
// `currentId`, the message the chat ends at, because a regenerated answer starts a branch)
// and, in most versions, the current branch again as the list `chat.messages`. The branch
// the user last saw is imported; system messages are not.
import { z } from 'zod';
import {
  checkedTime,
  type ImportedConversation,
  type ImportedMessage,
  importedConversationId,
  importError,
  parseFormat,
  secondsToMs,
} from './imported.ts';

const Message = z.object({
  id: z.string().optional(),
  parentId: z.string().nullable().optional(),
  role: z.string(),
  content: z.string().nullable().optional(),
  timestamp: z.number().nullable().optional(),
});
type Message = z.infer<typeof Message>;

const Chat = z.object({
  id: z.string().optional(),
  title: z.string().nullable().optional(),
  created_at: z.number().nullable().optional(),
  chat: z
    .object({
      id: z.string().nullable().optional(),
      timestamp: z.number().nullable().optional(),
      messages: z.array(Message).nullable().optional(),
      history: z
        .object({
          messages: z.record(z.string(), Message),
          currentId: z.string().nullable().optional(),
        })
        .nullable()
        .optional(),
    })
    .refine((c) => c.messages != null || c.history != null, {
      message: "a chat needs 'messages' or 'history'",
    }),
});
type Chat = z.infer<typeof Chat>;

export const OpenWebUiExport = z.array(Chat);

/**
 * Open WebUI writes message and chat times in Unix seconds, and `chat.timestamp` in
 * milliseconds. A value this large is milliseconds: as seconds it would be past the year 5000.
 */
const MILLISECONDS_FROM = 100_000_000_000;
const toMs = (t: number): number => (t >= MILLISECONDS_FROM ? Math.round(t) : secondsToMs(t));

/** The branch from the root to `currentId`, following `parentId`. */
function historyBranch(
  history: { messages: Record<string, Message>; currentId?: string | null },
  where: string,
): Message[] {
  const { messages, currentId } = history;
  if (!currentId) {
    // No current message recorded: every message in time order.
    return Object.values(messages).sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
  }
  const path: Message[] = [];
  const seen = new Set<string>();
  let id: string | null | undefined = currentId;
  while (id) {
    const m: Message | undefined = messages[id];
    if (!m || seen.has(id)) {
      throw importError(
        'openwebui',
        `${where}.chat.history.messages: "${id.slice(0, 60)}" is ${m ? 'its own ancestor' : 'missing'}`,
      );
    }
    seen.add(id);
    path.push(m);
    id = m.parentId;
  }
  return path.reverse();
}

function readChat(c: Chat, index: number, now: number): ImportedConversation {
  const where = `data.${index}`;
  const started = c.created_at ?? c.chat.timestamp;
  if (started == null) throw importError('openwebui', `${where}.created_at: required`);
  let last = checkedTime('openwebui', toMs(started), `${where}.created_at`, now);
  const branch = c.chat.history ? historyBranch(c.chat.history, where) : (c.chat.messages ?? []);
  const messages: ImportedMessage[] = [];
  branch.forEach((m, i) => {
    if (m.role !== 'user' && m.role !== 'assistant') return;
    const content = (m.content ?? '').trim();
    if (content === '') return;
    const at =
      m.timestamp == null
        ? last
        : checkedTime('openwebui', toMs(m.timestamp), `${where}.chat.messages.${i}.timestamp`, now);
    last = at;
    messages.push({ role: m.role, content, at });
  });
  return {
    conversationId: importedConversationId('openwebui', c.id ?? c.chat.id ?? undefined, messages),
    messages,
  };
}

/** Reads Open WebUI's chat export; throws a 400 naming what is wrong. */
export function parseOpenWebUiExport(data: unknown, now: number): ImportedConversation[] {
  const chats = parseFormat('openwebui', OpenWebUiExport, data);
  return chats.map((c, i) => readChat(c, i, now));
}
