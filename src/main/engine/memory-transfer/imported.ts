// What every import format is read into: conversations of user and assistant messages, each
// with its own date, checked before anything is written. The format parsers (chatgpt.ts,
// claude.ts, openwebui.ts) read one service's export into this; import.ts writes it.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ImportFormat } from '../../../shared/memory-export.ts';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';
import { parseIngestDate } from '../server/ingest-dates.ts';
import { describeIssues } from '../server/validate.ts';

export interface ImportedMessage {
  role: 'user' | 'assistant';
  content: string;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface ImportedConversation {
  /** The conversation's id in Cairn: the format and the service's own id. */
  conversationId: string;
  messages: ImportedMessage[];
}

export const FORMAT_NAMES: Record<ImportFormat, string> = {
  chatgpt: "a ChatGPT export (conversations.json: a list of conversations with 'mapping')",
  claude: "a Claude export (conversations.json: a list of conversations with 'chat_messages')",
  openwebui: "an Open WebUI export (a list of chats with 'chat.messages' or 'chat.history')",
  cairn: 'a Cairn memory export (format "cairn-memory", version 1)',
};

/** 400 naming the format and what is wrong, and nothing is stored. */
export function importError(format: ImportFormat, problem: string): CairnError {
  return new CairnError(
    ErrorCode.ValidationFailed,
    `data is not ${FORMAT_NAMES[format]}: ${problem}`,
  );
}

/** The format a document looks like, by the keys each service's export has. */
export function guessFormat(data: unknown): ImportFormat | null {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    return (data as { format?: unknown }).format === 'cairn-memory' ? 'cairn' : null;
  }
  if (!Array.isArray(data) || data.length === 0) return null;
  const first: unknown = data[0];
  if (typeof first !== 'object' || first === null) return null;
  if ('mapping' in first) return 'chatgpt';
  if ('chat_messages' in first) return 'claude';
  if ('chat' in first) return 'openwebui';
  return null;
}

/**
 * Validates `data` with a format's schema; a failure names the fields (`data.3.mapping`) and,
 * when the document looks like another format, says which one was probably meant.
 */
export function parseFormat<S extends z.ZodType>(
  format: ImportFormat,
  schema: S,
  data: unknown,
): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ ...i, path: ['data', ...i.path] }));
  const guessed = guessFormat(data);
  const hint =
    guessed !== null && guessed !== format
      ? ` (it looks like ${FORMAT_NAMES[guessed]}: choose format "${guessed}")`
      : '';
  throw importError(format, describeIssues(issues) + hint);
}

/**
 * A time in ms the way ingest accepts dates (DESIGN §9: strict, never guessed): a real
 * calendar date from 1900 to a year ahead of the clock. `where` names the field in the error.
 */
export function checkedTime(format: ImportFormat, ms: number, where: string, now: number): number {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  // Beyond ±8.64e15 ms a Date is invalid (its year NaN): not a date either.
  if (Number.isNaN(date.getTime()) || year < 0 || year > 9999) {
    throw importError(format, `${where}: ${ms} is not a date`);
  }
  const parsed = parseIngestDate(date.toISOString(), now);
  if (!parsed.ok) throw importError(format, `${where}: ${parsed.reason}`);
  return parsed.at;
}

/** An ISO 8601 text (`2023-05-08T13:56:00.123456+00:00`) checked like an ingest date. */
export function checkedIsoTime(
  format: ImportFormat,
  text: string,
  where: string,
  now: number,
): number {
  const parsed = parseIngestDate(text, now);
  if (!parsed.ok) {
    throw importError(
      format,
      `${where}: "${text.slice(0, 60)}" is not a valid date: ${parsed.reason}`,
    );
  }
  return parsed.at;
}

/** Unix seconds (with a fraction: ChatGPT writes `1699564800.123`) to ms. */
export const secondsToMs = (seconds: number): number => Math.round(seconds * 1000);

/**
 * The conversation id Cairn stores an imported conversation under: `<format>:<its id>`, so
 * the same conversation imported again is recognised. Without an id of its own, one derived
 * from its first message and date (stable across exports of the same history).
 */
export function importedConversationId(
  format: ImportFormat,
  ownId: string | undefined,
  messages: readonly ImportedMessage[],
): string {
  const id = ownId?.trim();
  if (id) return `${format}:${id.slice(0, 180)}`;
  const first = messages[0];
  const digest = createHash('sha256')
    .update(`${first?.at ?? ''}\n${first?.content ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  return `${format}:${digest}`;
}

/**
 * Exchanges in a list of messages: each user message opens one, the answers after it belong
 * to it (an answer before any user message is an exchange of its own).
 */
export function countTurns(messages: readonly { role: string }[]): number {
  let turns = 0;
  let open = false;
  for (const m of messages) {
    if (m.role === 'user') {
      turns++;
      open = true;
    } else if (m.role === 'assistant' && !open) {
      turns++;
      open = true;
    }
  }
  return turns;
}

/** Text parts joined; blank parts dropped. */
export function joinText(parts: readonly string[]): string {
  return parts
    .filter((p) => p.trim() !== '')
    .join('\n\n')
    .trim();
}
