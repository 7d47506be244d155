// The write path (DESIGN §6): debounced, per-conversation distillation of recorded turns.
//
// - notifyTurn() (hot path) only re-arms a timer. A new conversation of the same agent
//   flushes the agent's previous conversation at once.
// - Which model, if any, is decided per distillation (core-model.ts): the named Core Model,
//   or in auto mode the model the conversation was chatted with when the upstream is on this
//   machine. That chat model is remembered in memory only (notifyTurn), so conversations
//   recovered after a restart, ingests and imports use the heuristic stage in auto mode.
// - One Core Model call per conversation asks for the JSON digest; the reply is parsed
//   leniently (digest.ts). A reply that is not a digest (prose, wrong shape) will not become
//   one by asking again: the heuristic stage distils the conversation at once and
//   processing_log says why. A failed call (network, timeout, HTTP error) counts an attempt
//   and is retried later, dead letter after the third (visible in diagnostics, retryable);
//   each failed attempt also stores the heuristic digest, so memory never waits on a model
//   that is down. Without a Core Model the heuristic stage is used directly.
// - Work runs one conversation at a time (a bounded queue), never on the request path.
// - recover() at start-up resets 'processing' rows left by a dead process and re-arms every
//   conversation with pending signals; flush() at shutdown processes what it can in time.
// - Everything is logged to processing_log without content.
import { DISTILL_MAX_TRANSCRIPT_CHARS, DISTILL_SYSTEM_PROMPT } from '../../../shared/core-model.ts';
import type { Digest } from '../../../shared/digest.ts';
import { isCairnError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type {
  ChatMessageLike,
  DistillerService,
  SettingsService,
  UpstreamClient,
  VectorService,
} from '../services.ts';
import type { Db } from '../store/migrate.ts';
import { logProcessing, type ProcessingLogInput } from '../store/processing-log.ts';
import {
  claimPendingSignals,
  conversationMessages,
  listPendingConversations,
  markSignalsFailed,
  markSignalsProcessed,
  MAX_DISTILL_ATTEMPTS,
  releaseSignals,
  resetStaleProcessing,
  type ConversationMessage,
} from '../store/signals.ts';
import { heuristicReasonText, resolveCoreModel } from './core-model.ts';
import { parseDigest } from './digest.ts';
import { storeDigest } from './facts.ts';
import type { DigestThread } from './digest-thread.ts';
import { heuristicDigestInSlices, type HeuristicMessage } from './heuristic-distiller.ts';
import type { WordVectors } from '../vector/word-vectors.ts';
import { stripPrivate } from '../text/private.ts';

export interface DistillerOptions {
  db: Db;
  settings: SettingsService;
  upstream: UpstreamClient;
  vectors: VectorService | null;
  logger: Logger;
  clock: Clock;
  /** Tests: a debounce shorter than the 10 s minimum of summaryDebounceSeconds. */
  debounceMsOverride?: number;
  /**
   * Delay before a failed Core Model call is retried (default 60 s): with 3 attempts, a Core
   * Model that is down yields a dead letter and heuristic memory within about two minutes.
   */
  retryDelayMs?: number;
  /** Delay before recovered conversations are distilled after start-up (default 2 s). */
  recoverDelayMs?: number;
  /** Timeout of one Core Model call (default 120 s). */
  llmTimeoutMs?: number;
  maxAttempts?: number;
  /** Newest transcript rows of a conversation considered (default 2000). */
  maxRows?: number;
  /** Characters of transcript sent to the Core Model (newest kept; default 24 000). */
  maxPromptChars?: number;
  /**
   * The static word vectors once loaded (null before): the heuristic stage types the facts no
   * specific rule reads by their meaning (extraction/rules/statements.ts).
   */
  wordVectors?: () => WordVectors | null;
  /**
   * Hands the event loop back between slices of a heuristic digest (default: its next turn).
   * The server waits for a moment no request is in flight.
   */
  pause?: () => Promise<void>;
  /**
   * Reads conversations on a worker thread (digest-thread.ts); without one, or when it fails,
   * they are read here, in slices between requests.
   */
  digestThread?: DigestThread | null;
}

/** Conversations remembered per agent to tell a new conversation from a return to one. */
const SEEN_PER_AGENT = 1_000;

export type DistillOutcome =
  | 'nothing'
  | 'llm'
  | 'heuristic'
  /** The Core Model answered something that is not a digest: the heuristic stage served. */
  | 'fallback'
  | 'retry'
  | 'dead_letter'
  | 'interrupted';

/** Conversations whose chat model is remembered (the oldest is forgotten beyond this). */
const MAX_REMEMBERED_CHAT_MODELS = 10_000;
/** Longer `model` values are not remembered (the settings cap a Core Model name the same). */
const MAX_MODEL_NAME_CHARS = 500;

const key = (agentId: string, conversationId: string) => JSON.stringify([agentId, conversationId]);

function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Core Model prompt: the conversation (private spans removed), newest kept if too long. */
export function buildDistillPrompt(
  messages: ConversationMessage[],
  maxChars: number,
): ChatMessageLike[] {
  const lines: string[] = [];
  let size = 0;
  let truncated = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const text = stripPrivate(m.content);
    if (!text) continue;
    const line = `[${formatDate(m.created_at)}] ${m.role}: ${text}`;
    if (size + line.length > maxChars) {
      if (lines.length === 0) lines.push(line.slice(line.length - maxChars));
      truncated = true;
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  lines.reverse();
  const first = messages[0];
  const header = first ? `Conversation of ${formatDate(first.created_at)}` : 'Conversation';
  return [
    { role: 'system', content: DISTILL_SYSTEM_PROMPT },
    {
      role: 'user',
      content: `${header}${truncated ? ' (earlier messages omitted)' : ''}:\n\n${lines.join('\n')}`,
    },
  ];
}

export function createDistiller(
  options: DistillerOptions,
): DistillerService & { stop(): void; idle(): Promise<void> } {
  const { db, settings, upstream, vectors, clock } = options;
  const log = options.logger.child('distiller');
  const maxAttempts = options.maxAttempts ?? MAX_DISTILL_ATTEMPTS;
  const maxRows = options.maxRows ?? 2000;
  const maxPromptChars = options.maxPromptChars ?? DISTILL_MAX_TRANSCRIPT_CHARS;
  const llmTimeoutMs = options.llmTimeoutMs ?? 120_000;

  const timers = new Map<
    string,
    { timer: NodeJS.Timeout; agentId: string; conversationId: string }
  >();
  /**
   * The conversations each agent has had turns in, by their latest turn (the last one is the
   * agent's current conversation; at most SEEN_PER_AGENT). Only a conversation not among them
   * is new. Clients that keep several conversations of one agent going at once (parallel
   * sessions, sub-agents) switch between them on every turn; each switch is no sign that the
   * other one ended, so it is left to its debounce instead of being distilled again after each
   * of its turns.
   */
  const seenConversations = new Map<string, Set<string>>();
  /**
   * Records a turn; returns the conversation it finishes: the agent's current one, when this
   * turn starts a new conversation.
   */
  function noteTurn(agentId: string, conversationId: string): string | undefined {
    const seen = seenConversations.get(agentId) ?? new Set<string>();
    seenConversations.set(agentId, seen);
    let finished: string | undefined;
    if (!seen.has(conversationId)) for (const c of seen) finished = c;
    seen.delete(conversationId);
    seen.add(conversationId);
    if (seen.size > SEEN_PER_AGENT) seen.delete(seen.values().next().value as string);
    return finished;
  }
  // The `model` of each conversation's most recent chat request (auto mode distils with it).
  const chatModels = new Map<string, string>();

  function rememberChatModel(k: string, model: string | null | undefined): void {
    const name = model?.trim();
    if (!name || name.length > MAX_MODEL_NAME_CHARS) return;
    chatModels.delete(k); // re-inserted last: the map's order is least recently chatted first
    chatModels.set(k, name);
    if (chatModels.size > MAX_REMEMBERED_CHAT_MODELS) {
      chatModels.delete(chatModels.keys().next().value!);
    }
  }
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;
  // Aborted when flush() runs out of time: an in-flight Core Model call gives up.
  const shutdown = new AbortController();

  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));

  const debounceMs = () =>
    options.debounceMsOverride ?? settings.get().summaryDebounceSeconds * 1000;

  function arm(agentId: string, conversationId: string, delayMs: number): void {
    if (stopped) return;
    const k = key(agentId, conversationId);
    const existing = timers.get(k);
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      timers.delete(k);
      if (settings.get().extractionMode === 'manual') return;
      void enqueue(agentId, conversationId, false).catch((err: unknown) =>
        log.error('distillation failed', { err }),
      );
    }, delayMs);
    timer.unref();
    timers.set(k, { timer, agentId, conversationId });
  }

  function enqueue(
    agentId: string,
    conversationId: string,
    untilDone: boolean,
  ): Promise<DistillOutcome> {
    const run = queue.then(async () => {
      let outcome = await distilOnce(agentId, conversationId);
      while (untilDone && outcome === 'retry' && !stopped) {
        outcome = await distilOnce(agentId, conversationId);
      }
      if (outcome === 'retry' && !stopped) {
        arm(agentId, conversationId, options.retryDelayMs ?? 60_000);
      }
      return outcome;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  async function storeHeuristic(
    agentId: string,
    conversationId: string,
    messages: ConversationMessage[],
  ): Promise<unknown> {
    const input: HeuristicMessage[] = messages.map((m) => ({
      role: m.role,
      content: stripPrivate(m.content),
      created_at: m.created_at,
      // Provenance: each fact names the transcript rows it was read from.
      id: m.id,
    }));
    const conversationAt = messages[0]!.created_at;
    const words = options.wordVectors?.() ?? null;
    const thread = options.digestThread ?? null;
    let digest: Digest | null = null;
    // The worker reads the same asset; vectors built in memory (tests) are read here.
    if (thread && (words === null || words.sourcePath !== null)) {
      try {
        digest = await thread.digest(input, {
          conversationAt,
          wordVectorsPath: words?.sourcePath ?? null,
        });
      } catch (err) {
        if (shutdown.signal.aborted) throw err;
        log.warn('digest worker unavailable; reading the conversation here', {
          error: (err as Error).message,
        });
      }
    }
    digest ??= await heuristicDigestInSlices(input, { conversationAt, words }, pause);
    return store(agentId, conversationId, messages, digest);
  }

  function store(
    agentId: string,
    conversationId: string,
    messages: ConversationMessage[],
    digest: Digest,
  ) {
    return storeDigest({
      db,
      agentId,
      conversationId,
      conversationAt: messages[0]!.created_at,
      digest,
      now: clock.now(),
      vectors,
      logger: log,
    });
  }

  /** One attempt at the conversation's pending signals. */
  async function distilOnce(agentId: string, conversationId: string): Promise<DistillOutcome> {
    const started = clock.now();
    const t0 = performance.now();
    const signals = claimPendingSignals(db, agentId, conversationId, started);
    if (signals.length === 0) return 'nothing';
    const ids = signals.map((s) => s.id);
    const elapsed = () => performance.now() - t0;
    /** The attempt's line in the processing log. */
    const logAttempt = (entry: Pick<ProcessingLogInput, 'status' | 'model' | 'tokens' | 'error'>) =>
      logProcessing(db, {
        kind: 'distill',
        agentId,
        durationMs: elapsed(),
        now: clock.now(),
        ...entry,
      });
    /** The conversation's signals are done with: marked processed, the attempt logged. */
    const processed = (entry: Parameters<typeof logAttempt>[0]) => {
      markSignalsProcessed(db, agentId, ids, clock.now());
      logAttempt(entry);
    };
    try {
      const messages = conversationMessages(db, agentId, conversationId, maxRows).filter(
        (m) => m.role === 'user' || m.role === 'assistant',
      );
      if (messages.length === 0) {
        // The transcript was deleted before it was distilled: nothing left to remember.
        processed({ status: 'skipped', error: 'no transcript left for this conversation' });
        return 'nothing';
      }
      const choice = resolveCoreModel({
        settings: settings.get(),
        upstreamBaseUrl: upstream.baseUrl(),
        chatModel: chatModels.get(key(agentId, conversationId)) ?? null,
      });
      if (choice.use === 'heuristic') {
        await storeHeuristic(agentId, conversationId, messages);
        processed({ status: 'ok', model: 'heuristic' });
        log.info('distilled (heuristic)', {
          agent: agentId,
          conversation: conversationId,
          why: heuristicReasonText(choice.reason),
        });
        return 'heuristic';
      }
      const model = choice.model;

      let failure: string;
      let tokens: number | null = null;
      try {
        const result = await upstream.complete({
          model,
          messages: buildDistillPrompt(messages, maxPromptChars),
          json: true,
          temperature: 0,
          timeoutMs: llmTimeoutMs,
          signal: shutdown.signal,
        });
        tokens = result.tokens;
        const parsed = parseDigest(result.content);
        if (parsed.ok) {
          await store(agentId, conversationId, messages, parsed.digest);
          processed({ status: 'ok', model: result.model || model, tokens });
          log.info('distilled', { agent: agentId, conversation: conversationId, tokens });
          return 'llm';
        }
        // The model answered, but not with a digest: asking again gets the same kind of
        // answer (a chat model that ignores the format), so the heuristic stage serves now.
        const why = `${model} answered without a digest (${parsed.error}); the heuristic digest was stored`;
        await storeHeuristic(agentId, conversationId, messages);
        processed({ status: 'ok', model: 'heuristic', tokens, error: why });
        log.info('distilled (heuristic fallback)', {
          agent: agentId,
          conversation: conversationId,
          why,
        });
        return 'fallback';
      } catch (err) {
        if (shutdown.signal.aborted) {
          releaseSignals(db, agentId, ids, clock.now());
          return 'interrupted';
        }
        failure = isCairnError(err)
          ? `${err.code}: ${err.message}`
          : `${(err as Error).name}: ${(err as Error).message}`;
      }

      // The call failed (network, timeout, HTTP error): retried later, dead letter after the
      // last attempt. Memory does not wait meanwhile: the heuristic digest is stored now (a
      // later Core Model digest replaces the episode and adds its facts).
      await storeHeuristic(agentId, conversationId, messages);
      const { attempts, deadLettered } = markSignalsFailed(
        db,
        agentId,
        ids,
        failure,
        clock.now(),
        maxAttempts,
      );
      logAttempt({
        status: deadLettered ? 'dead_letter' : 'error',
        model,
        tokens,
        error: `${failure}; the heuristic digest was stored meanwhile`,
      });
      log.warn('distillation attempt failed', {
        agent: agentId,
        conversation: conversationId,
        attempts,
        deadLettered,
        error: failure,
      });
      return deadLettered ? 'dead_letter' : 'retry';
    } catch (err) {
      if (shutdown.signal.aborted) {
        // Stopping (the digest worker closed under it): left for the next start.
        releaseSignals(db, agentId, ids, clock.now());
        return 'interrupted';
      }
      // A bug or a database error: count it as an attempt so it cannot loop forever.
      const message = `${(err as Error).name}: ${(err as Error).message}`;
      const { deadLettered } = markSignalsFailed(
        db,
        agentId,
        ids,
        message,
        clock.now(),
        maxAttempts,
      );
      logAttempt({ status: deadLettered ? 'dead_letter' : 'error', error: message });
      log.error('distillation failed', { agent: agentId, err });
      return deadLettered ? 'dead_letter' : 'retry';
    }
  }

  // Switching extraction back on (manual → sessionEnd) distils what waited meanwhile.
  const unsubscribe = settings.onChange((next, prev) => {
    if (stopped || prev.extractionMode !== 'manual' || next.extractionMode === 'manual') return;
    for (const p of listPendingConversations(db)) arm(p.agent_id, p.conversation_id, debounceMs());
  });

  const service = {
    notifyTurn(agentId: string, conversationId: string, model?: string | null): void {
      if (stopped) return;
      rememberChatModel(key(agentId, conversationId), model);
      const finished = noteTurn(agentId, conversationId);
      if (settings.get().extractionMode === 'manual') return;
      // A new conversation for the same agent: the previous one is finished.
      if (finished !== undefined) arm(agentId, finished, 0);
      arm(agentId, conversationId, debounceMs());
    },

    async distilNow(agentId: string, conversationId: string): Promise<void> {
      const k = key(agentId, conversationId);
      const t = timers.get(k);
      if (t) {
        clearTimeout(t.timer);
        timers.delete(k);
      }
      await enqueue(agentId, conversationId, true);
    },

    recover(): void {
      const reset = resetStaleProcessing(db, clock.now());
      const pending = listPendingConversations(db);
      if (reset || pending.length) {
        log.info('recovering pending signals', { conversations: pending.length, reset });
      }
      if (settings.get().extractionMode === 'manual') return;
      const base = options.recoverDelayMs ?? 2000;
      pending.forEach((p, i) => arm(p.agent_id, p.conversation_id, base + i * 10));
    },

    async flush(timeoutMs: number): Promise<void> {
      const deadline = performance.now() + timeoutMs;
      const armed = [...timers.values()];
      for (const t of armed) clearTimeout(t.timer);
      timers.clear();
      stopped = true;
      unsubscribe();
      const abortTimer = setTimeout(() => shutdown.abort(), timeoutMs);
      abortTimer.unref();
      try {
        await Promise.race([queue, sleep(timeoutMs)]);
        if (settings.get().extractionMode === 'manual') return;
        const todo = new Map<string, [string, string]>();
        for (const t of armed)
          todo.set(key(t.agentId, t.conversationId), [t.agentId, t.conversationId]);
        for (const p of listPendingConversations(db)) {
          todo.set(key(p.agent_id, p.conversation_id), [p.agent_id, p.conversation_id]);
        }
        for (const [agentId, conversationId] of todo.values()) {
          if (performance.now() >= deadline || shutdown.signal.aborted) break;
          const run = queue.then(() => distilOnce(agentId, conversationId));
          queue = run.catch(() => undefined);
          await Promise.race([run, sleep(Math.max(0, deadline - performance.now()))]);
        }
      } finally {
        clearTimeout(abortTimer);
        shutdown.abort();
        // Let an interrupted attempt release its signals before the database closes.
        await Promise.race([queue, sleep(200)]);
      }
    },

    stop(): void {
      stopped = true;
      unsubscribe();
      for (const t of timers.values()) clearTimeout(t.timer);
      timers.clear();
    },

    /** Tests and shutdown: resolves when the queue is empty. */
    idle(): Promise<void> {
      return queue.then(() => undefined);
    },
  };
  return service;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
  });
}
