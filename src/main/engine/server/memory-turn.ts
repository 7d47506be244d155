import { getAgentSettings } from '../store/agent-settings.ts';
import type { MemorySection } from '../../../shared/api.ts';
import type { ContextResult, EngineServices } from '../services.ts';
import type { TranscriptMessage } from '../store/transcript.ts';
import { stripSystemReminders } from '../memory/system-reminders.ts';
import type { TranscriptWriter } from '../store/transcript-writer.ts';
import type { BackgroundTasks } from './background.ts';
import { recordMemoryActivity } from './memory-activity.ts';

// The memory step every wire format shares (DESIGN §5 steps 3-4 and 6, §9): chat completions,
// Anthropic Messages, OpenAI Responses and Ollama chat all call `beginMemoryTurn` with the
// newest real user text of their request, place the block it returns in their own format, and
// hand it the assistant's text once the answer completed. What the block says, the
// `x-cairn-memory` header and how a turn is recorded are therefore the same in every format.

/** The response header that says what memory did for a request (DESIGN §9). */
export const MEMORY_HEADER = 'x-cairn-memory';

/** Why no fresh block goes into a request that carries the agent header. */
export type MemorySkipReason =
  /** The newest user message holds only tool results: its turn was answered before. */
  | 'tool-continuation'
  /** A side request of the client (title, summary, safety check), not the user's turn. */
  | 'auxiliary'
  /** The request has no user text to look memory up for. */
  | 'no-user-text'
  /** The newest user message was sent before and got its block then (a retry): re-used. */
  | 'resent';

export interface MemoryTurnDeps {
  services: EngineServices;
  background: BackgroundTasks;
  writer: TranscriptWriter;
}

export interface MemoryTurnRequest {
  /** The wire format, for logs and the activity view: `chat`, `anthropic`, `responses`, ... */
  protocol: string;
  agentId: string;
  conversationId: string;
  /** The text of the newest real user message (text parts joined), or null when it has none. */
  userText: string | null;
  /** Set when no fresh block may be added; the turn's answer is still recorded. */
  skip: MemorySkipReason | null;
  /**
   * Whether `userText` is recorded with the answer. False for a tool-result continuation
   * (its user message was recorded with the earlier turn) and for auxiliary requests.
   */
  recordUser: boolean;
  /** When the request arrived (the user row's created_at). */
  startedAt: number;
  /**
   * The request's `model` when the OpenAI-compatible upstream answers it: in auto mode the
   * distiller uses it as the Core Model (memory/core-model.ts). Omitted for a pass-through to
   * another upstream, whose model names the OpenAI-compatible one may not know.
   */
  model?: string | null;
  /** The client went away: the memory lookup stops (and rejects with an AbortError). */
  signal?: AbortSignal;
}

export interface MemoryTurn {
  /** Whether memory is on for this request (agent header given and not paused in Settings). */
  active: boolean;
  /** The `[Memory] ... [/Memory]` block to add, or '' for none. */
  block: string;
  section: MemorySection;
  tokens: number;
  /** Why nothing was injected (when `block` is ''). */
  reason: string | null;
  /** The block's lines and where each came from (the Activity view). */
  lines?: ContextResult['lines'];
  /**
   * Schedules recording the turn once the answer completed: `answer` runs in the background
   * at a quiet moment (so parsing a stream costs the request nothing) and returns the
   * assistant's text, or null when the answer did not complete (nothing is recorded then).
   */
  recordAnswer(answer: () => string | null): void;
}

/** The `x-cairn-memory` value for a turn: `injected; tokens=N; section=S` or `none; reason=R`. */
export function memoryHeaderValue(
  turn: Pick<MemoryTurn, 'block' | 'tokens' | 'section' | 'reason'>,
): string {
  if (turn.block !== '') return injectedHeaderValue(turn.section, turn.tokens);
  return `none; reason=${turn.reason ?? 'nothing-relevant'}`;
}

export function injectedHeaderValue(section: string, tokens: number): string {
  return `injected; tokens=${tokens}; section=${section}`;
}

const PAUSED: MemoryTurn = {
  active: false,
  block: '',
  section: 'none',
  tokens: 0,
  reason: 'memory-paused',
  recordAnswer: () => {},
};

/**
 * Runs the gate and the planner for the newest user text of a request (any wire format) and
 * returns the block to place plus a recorder for the answer. Memory paused in Settings: no
 * block and nothing recorded. A failing lookup is logged and answered with no block (memory
 * is an addition; the request still gets its answer), unless the client went away, in which
 * case the AbortError is rethrown so the route can end quietly.
 */
export async function beginMemoryTurn(
  deps: MemoryTurnDeps,
  request: MemoryTurnRequest,
): Promise<MemoryTurn> {
  const own = { ...request, userText: userWords(request.userText) };
  const turn = await chooseMemoryTurn(deps, own);
  recordMemoryActivity(deps, own, turn);
  return turn;
}

/**
 * The user's own words: a client's system-reminder blocks are neither recorded nor looked up
 * (memory/system-reminders.ts). Only the text memory uses; the forwarded request keeps them.
 */
function userWords(text: string | null): string | null {
  return text === null ? null : stripSystemReminders(text);
}

/** At most this long a request waits for the agent's earlier turns to be recorded. */
const READ_YOUR_WRITES_MS = 1_000;

async function chooseMemoryTurn(
  deps: MemoryTurnDeps,
  request: MemoryTurnRequest,
): Promise<MemoryTurn> {
  const { services } = deps;
  if (!services.settings.get().enabled) return PAUSED;
  // An agent whose memory the user paused: nothing injected, nothing recorded.
  if (getAgentSettings(services.db, request.agentId).paused) return PAUSED;
  const recordAnswer = (answer: () => string | null): void => {
    deps.background.runWhenQuiet(
      `record-${request.protocol}-turn`,
      () => {
        const text = answer();
        if (text === null) return;
        return recordTurn(deps, request, text);
      },
      { key: request.agentId, tag: request.conversationId },
    );
  };
  const none = (reason: string): MemoryTurn => ({
    active: true,
    block: '',
    section: 'none',
    tokens: 0,
    reason,
    recordAnswer,
  });
  if (request.skip !== null) return none(request.skip);
  if (request.userText === null || request.userText === '') return none('no-user-text');
  try {
    // What the user said just before, in another conversation, is memory already: its turn,
    // still waiting for a quiet moment to be recorded, is recorded (and indexed) first. This
    // conversation's own turns come with the request.
    await deps.background.settle(request.agentId, READ_YOUR_WRITES_MS, request.conversationId);
    // The block's use (use_count, last_used) is written with the turn's activity, after the
    // answer and in one commit (memory-activity.ts): the request path writes no usage.
    const ctx = await services.memory.buildContext(request.agentId, request.userText, {
      signal: request.signal,
      bumpUsage: false,
    });
    if (ctx.block === '') return none(ctx.section === 'none' ? 'gate' : 'nothing-relevant');
    return {
      active: true,
      block: ctx.block,
      section: ctx.section,
      tokens: ctx.tokens,
      reason: null,
      ...(ctx.lines ? { lines: ctx.lines } : {}),
      recordAnswer,
    };
  } catch (err) {
    if (request.signal?.aborted) throw err;
    services.dbHealth.noteError(err);
    services.logger
      .child('memory-turn')
      .error('building the memory context failed; forwarding without memory', {
        protocol: request.protocol,
        err,
      });
    return none('error');
  }
}

/** Transcript rows + pending signal (one transaction), then the distiller and vectors. */
async function recordTurn(
  deps: MemoryTurnDeps,
  request: MemoryTurnRequest,
  assistantText: string,
): Promise<void> {
  const { services } = deps;
  const messages: TranscriptMessage[] = [];
  if (request.recordUser && request.userText !== null && request.userText !== '') {
    messages.push({ role: 'user', content: request.userText, createdAt: request.startedAt });
  }
  if (assistantText !== '') {
    messages.push({ role: 'assistant', content: assistantText, createdAt: services.clock.now() });
  }
  if (messages.length === 0) return;
  const { transcriptIds } = await deps.writer.record({
    agentId: request.agentId,
    conversationId: request.conversationId,
    messages,
    now: services.clock.now(),
  });
  services.distiller.notifyTurn(request.agentId, request.conversationId, request.model);
  if (services.vectors) {
    await services.vectors.indexRows(
      'transcript',
      transcriptIds.map((id, i) => ({ id, agentId: request.agentId, text: messages[i]!.content })),
    );
  }
}
